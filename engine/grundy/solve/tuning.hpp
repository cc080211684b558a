// Every threshold and constant the SG engine was tuned on, in one place.
//
// Each says in a line why it exists and links the section of
// docs/TUNING.md that keeps its measurements (value, machine, command,
// commit). The graph sizes at which a path starts to pay are fields, so
// that tests can lower them and make small graphs take the paths of big
// ones (tests/support/presets.hpp), and so is the bar at which paired
// rounds give up, which a test raises; the rest are constants of the
// kernels.
// How loops are cut (min_parallel, grain, heavy_work) stays in
// ParallelConfig, which every loop reads.
#pragma once

#include <algorithm>
#include <cstddef>

#include "grundy/primitives/pair_loop.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

struct Tuning {
  // ---- graph sizes where a path starts to pay (fields: tests lower them)

  /// Kahn rounds are split between threads through the blocked scatter from
  /// this many nodes on (and one thread counts its wide rounds down through
  /// it): below, the in-degrees stay in cache and the scatter's extra pass
  /// costs more than a second thread saves (docs/TUNING.md#split-rounds).
  /// Two threads own the counters instead (owns_rounds_of).
  std::size_t split_rounds_from = std::size_t{1} << 21;
  /// The same from 4 threads on, where the extra pass is shared out widely
  /// enough to pay on 10^6-node graphs (docs/TUNING.md#split-rounds).
  std::size_t split_rounds_from_many = std::size_t{1} << 19;
  /// Two threads each own half the in-degree counters, for the count and
  /// the rounds, from this many nodes on; below, one thread's rounds stay in
  /// cache (docs/TUNING.md#owned-wide-rounds).
  std::size_t owned_rounds_from = std::size_t{1} << 18;
  /// Below this many nodes (4 MiB of 1-byte counters, in cache), those two
  /// threads count the in-degrees of half the edges each into counters of
  /// their own and add them up, instead of each reading every edge for its
  /// half of the counters (docs/TUNING.md#owned-in-degree-count).
  std::size_t halved_count_below = std::size_t{1} << 22;
  /// Past that, the same where half of a sample of the targets falls in
  /// this many bytes of counters or fewer (a skewed graph, whose hot
  /// counters stay in L2 either way) (docs/TUNING.md#owned-in-degree-count).
  std::size_t halved_count_hot_bytes = std::size_t{1} << 20;
  /// From this many nodes (16 MiB of 1-byte counters), where a sample of
  /// the targets spreads past halved_count_hot_bytes of counters (more than
  /// the cache keeps), in-degrees are counted and Kahn rounds split through
  /// the blocked scatter on any thread count, instead of counters that two
  /// threads own or one thread's plain pass: nearly every count there
  /// would miss (docs/TUNING.md#scattered-past-the-cache).
  std::size_t owned_count_below = std::size_t{1} << 24;
  /// The mex pass gathers values in batches from this many nodes on, with
  /// random ids: below, the values stay in cache (docs/TUNING.md#mex-batches).
  std::size_t batch_mex_from = std::size_t{1} << 16;
  /// The same with layered ids, whose pass reads ahead of its values' reach
  /// until about 3*10^6 nodes (docs/TUNING.md#mex-batches).
  std::size_t batch_layered_mex_from = std::size_t{1} << 22;
  /// On two threads or more, the mex pass over random ids runs as one
  /// dataflow loop from this many nodes on (docs/TUNING.md#dataflow-mex).
  std::size_t dataflow_mex_from = std::size_t{1} << 16;
  /// ... where layers average this many nodes or more: in a deep graph's
  /// one-node layers its threads would hand the walk over at every piece,
  /// each hand-over a time slice when other work shares the cores
  /// (docs/TUNING.md#dataflow-mex).
  std::size_t dataflow_mean_width = 64;

  /// Graphs below depth_first_below nodes, with at least
  /// depth_first_from_edges edges, are solved by one depth-first pass on one
  /// thread (depth_first.hpp) instead of layering and a mex pass: one pass
  /// over the edges beats three while the per-node arrays stay near the
  /// core, even against two threads' passes; on smaller graphs those passes
  /// measured faster than the walk (docs/TUNING.md#depth-first-path).
  std::size_t depth_first_below = std::size_t{1} << 18;
  std::size_t depth_first_from_edges = std::size_t{1} << 17;
  /// ... or, with fewer edges, at least this many a node: dense small
  /// graphs gain from the one pass too (docs/TUNING.md#depth-first-path).
  std::size_t depth_first_from_degree = 8;

  /// Graphs of this many nodes on are renumbered in a locality order when
  /// their Kahn rounds turn out deep: below, the arrays a round misses on
  /// stay in cache (docs/TUNING.md#deep-graphs).
  std::size_t reorder_deep_from = std::size_t{1} << 18;
  /// Kahn rounds are checked for depth every this many rounds: a window
  /// whose rounds average fewer than deep_round_width nodes, with a quarter
  /// of the graph or more still unplaced, stops them (docs/TUNING.md#deep-graphs).
  std::size_t deep_window_rounds = 4096;
  /// Below reorder_deep_from, where the level engine may walk a graph depth
  /// first (depth_first.hpp), its rounds are checked every this many rounds
  /// the same way, and a deep one is walked instead (docs/TUNING.md#deep-graphs).
  std::size_t small_deep_window_rounds = 64;
  /// The locality order's walks start from the rulers of id blocks this
  /// wide, a task each (docs/TUNING.md#deep-graphs).
  std::size_t walk_block = std::size_t{1} << 16;

  /// Whether Kahn rounds of an n-node graph may be split between `threads`.
  /// From 4 threads the bar is the lower of the two, so that a tuning that
  /// lowers split_rounds_from (the tests' eager ones) lowers it for all.
  bool splits_rounds_of(std::size_t n, unsigned threads) const {
    return n >= (threads >= 4 ? std::min(split_rounds_from, split_rounds_from_many) : split_rounds_from);
  }

  /// Whether the rounds of an n-node graph are counted down by `threads`
  /// threads that each own counters (before splits_rounds_of is asked).
  bool owns_rounds_of(std::size_t n, unsigned threads) const {
    return threads > 1 && threads <= owned_count_max_threads && n >= owned_rounds_from;
  }

  // ---- when paired rounds give up (a field: a test raises it)

  /// Paired Kahn rounds end after this many stalled barrier waits (another
  /// process shares the cores: PairBarrier) (docs/TUNING.md#paired-rounds).
  unsigned paired_round_stalls = PairBarrier::default_max_stalls;

  // ---- constants of the kernels

  /// Graphs below this many nodes keep their per-node arrays in a core's
  /// cache (a judge-sized instance): there, prefetching rows, sorting rounds
  /// and 1-byte in-degrees cost more than the misses they would save
  /// (docs/TUNING.md#in-degree-counters).
  static constexpr std::size_t cached_nodes = std::size_t{1} << 16;

  /// A Kahn round is wide when its frontier holds 1/wide_round_share of the
  /// nodes or more: the next round is then found by scanning every counter
  /// (docs/TUNING.md#wide-rounds).
  static constexpr std::size_t wide_round_share = 512;
  /// ... in a graph in cache, 1/wide_round_share_cached: there a narrow
  /// round appends without a branch, and a scan of every counter costs
  /// more than a round of a few hundred nodes saves (docs/TUNING.md#wide-rounds).
  static constexpr std::size_t wide_round_share_cached = 16;
  /// Up to this many threads each owns a share of the in-degree counters
  /// and reads every edge, instead of the blocked scatter
  /// (docs/TUNING.md#owned-in-degree-count).
  static constexpr unsigned owned_count_max_threads = 2;
  /// Targets an owned count keeps per piece: 16 KiB, in L1.
  static constexpr std::size_t owned_count_piece = 4096;
  /// Targets sampled before a two-thread count past halved_count_below: to
  /// measure how concentrated they are (halved_count_hot_bytes), and to cut
  /// the owned count's counters where the threads get as many edges each.
  static constexpr std::size_t owned_count_sample = 4096;
  /// Counters per block when measuring where a sample's targets concentrate.
  static constexpr std::size_t hot_counter_block = 4096;
  /// A round narrower than ParallelConfig::min_parallel is split between
  /// the two owning threads from this many edges (the scatter's split keeps
  /// ParallelConfig::heavy_work's bar) (docs/TUNING.md#owned-split-rounds).
  static constexpr std::size_t owned_split_round_edges = 2048;
  /// Nodes of a round whose rows the owning threads share out at a time:
  /// the targets they hand over stay in L2 (docs/TUNING.md#owned-wide-rounds).
  static constexpr std::size_t owned_round_window = std::size_t{1} << 14;
  /// Nodes of a paired round a thread takes at a time
  /// (docs/TUNING.md#paired-rounds).
  static constexpr std::size_t paired_round_piece = 64;
  /// Paired rounds are given up for a layering after this many pairs found
  /// no second thread within a millisecond (docs/TUNING.md#paired-rounds).
  static constexpr unsigned paired_round_misses = 4;
  /// Targets a one-thread round stages before counting them down: 128 KiB,
  /// in L2 (docs/TUNING.md#staged-rows).
  static constexpr std::size_t staged_targets = std::size_t{1} << 15;
  /// Targets a narrow round in cache stages from its short rows before
  /// counting them down (docs/TUNING.md#narrow-rounds).
  static constexpr std::size_t staged_short_rows = 512;
  /// The blocked scatter's bound on targets held in its bins, all threads
  /// together (docs/TUNING.md#blocked-scatter).
  static constexpr std::size_t scatter_pending_edges = std::size_t{1} << 23;
  /// A window of Kahn rounds is deep when its rounds average fewer nodes
  /// than this (docs/TUNING.md#deep-graphs).
  static constexpr std::size_t deep_round_width = 16;
  /// The locality order's rulers: 1 node in 2^ruler_spacing_log2; a thread
  /// runs walks_in_flight walks at once, and a walk hands over its nodes
  /// walk_flush at a time (docs/TUNING.md#deep-graphs).
  static constexpr unsigned ruler_spacing_log2 = 8;
  static constexpr std::size_t walks_in_flight = 32, walk_flush = 4096;
  /// A walk copies rows of up to walk_row_copy successors as it reads them;
  /// a longer one goes from the graph into place, so that a walk's buffer
  /// holds no hub's row.
  static constexpr std::size_t walk_row_copy = 4096;
  /// The renumbering maps every old id to its new one when a sample of
  /// jump_sample rows finds more than sparse_jump_share of the edges jumping
  /// (to a node other than the next), else only the ids that jumps reach
  /// (docs/TUNING.md#deep-graphs).
  static constexpr std::size_t jump_sample = 4096;
  static constexpr double sparse_jump_share = 0.125;
  /// Kahn rounds prefetch a node's offsets this many nodes ahead, and its
  /// row the second distance ahead (docs/TUNING.md#layering-prefetch).
  static constexpr std::size_t layering_prefetch_offsets = 64, layering_prefetch_row = 32;
  /// A wide round whose sample of this many nodes finds this share or
  /// more without successors drops those first: R-MAT's sources are
  /// mostly isolated nodes (docs/TUNING.md#empty-rows).
  static constexpr std::size_t empty_rows_sample = 256;
  static constexpr double empty_rows_share = 0.25;
  /// A staged narrow round past the cache asks for the counter of the
  /// target this many ahead as it counts each down (docs/TUNING.md#narrow-rounds).
  static constexpr std::size_t narrow_round_prefetch = 32;

  /// Up to this many threads the depth-first pass is taken (measured on 2
  /// cores; more threads keep the parallel passes, not measured against it).
  static constexpr unsigned depth_first_max_threads = 2;
  /// Below depth_first_below, a graph takes the pass from cached_nodes nodes
  /// whatever its edges (a sparse one's sinks are solved before the walk), and
  /// one whose targets repeat (hubs) from depth_first_hub_from; on one
  /// thread, the latter up to this many times depth_first_below nodes,
  /// unless its depth is asked for (a batch's):
  /// layering pays per node and edge whatever the graph, while the walk
  /// finds hubs' values in L1 (docs/TUNING.md#depth-first-path).
  static constexpr std::size_t depth_first_hub_scale = 5;
  /// ... where this share or more of a sample of this many targets (at
  /// most one per repeated_targets_nodes nodes) repeat
  /// (repeated_target_share): evenly spread targets repeat about sample / 2n
  /// of the time, which that cap keeps under half the share; hubs far more.
  static constexpr std::size_t repeated_targets_sample = 2048;
  static constexpr std::size_t repeated_targets_nodes = 16;
  static constexpr double repeated_targets_share = 0.0625;
  /// ... from this many nodes (below cached_nodes, in cache, only graphs
  /// with hubs walk): smaller samples cannot tell hubs from chance.
  static constexpr std::size_t depth_first_hub_from = 4096;
  /// ... and gives the walk up for layering once its path holds n / this
  /// many nodes: a deep graph's walk enters node after node on a miss, with
  /// nothing to overlap (docs/TUNING.md#depth-first-path).
  static constexpr std::size_t hub_walk_depth_share = 64;
  /// The depth-first pass, past the cache, prefetches the offsets of this
  /// many of a node's first successors as it enters it
  /// (docs/TUNING.md#depth-first-path).
  static constexpr std::size_t depth_first_prefetch = 16;
  /// ... and, as it enters a successor, the rows of the next this many,
  /// whose offsets that asked for (docs/TUNING.md#depth-first-path).
  static constexpr std::size_t depth_first_sibling_rows = 4;

  /// The unbatched mex over random ids: the same two distances
  /// (docs/TUNING.md#prefetch-distances).
  static constexpr std::size_t mex_prefetch_offsets = 16, mex_prefetch_row = 8;
  /// The mex batches: the same two distances (docs/TUNING.md#prefetch-distances).
  static constexpr std::size_t batch_prefetch_offsets = 17, batch_prefetch_row = 9;
  /// Layers (or parts of one) narrower than this are not batched; runs of
  /// them go to one loop, whose prefetches reach across them
  /// (docs/TUNING.md#narrow-layers).
  static constexpr std::size_t min_batch_width = 64;
  /// The dataflow mex pass hands a thread pieces of about this many edges
  /// (at the last piece's edges a node), of at most this many nodes, and of
  /// at most 1/(threads * dataflow_layer_pieces) of a wide layer: smaller
  /// pieces leave the next layer's pieces less to solve ahead, larger ones
  /// batch more (docs/TUNING.md#dataflow-mex).
  static constexpr std::size_t dataflow_piece_edges = 4096, dataflow_piece_nodes = 4096;
  static constexpr unsigned dataflow_layer_pieces = 2;
  /// A thread of the dataflow pass solves a value it needs itself, depth
  /// first, through at most this many unsolved nodes; past them it waits
  /// (docs/TUNING.md#dataflow-mex).
  static constexpr std::size_t solve_ahead_nodes = 64;
  /// A batch's bound on gathered values (their lines fit in L2) and on
  /// nodes (docs/TUNING.md#value-prefetch).
  static constexpr std::size_t batch_edges = std::size_t{1} << 13, batch_nodes = 1024;
  /// Degrees below this take an unrolled mex body, chosen through a table:
  /// past twice the bench graphs' mean degree (10); not tuned
  /// (docs/TUNING.md#mex-unrolled-bodies).
  static constexpr std::size_t unrolled_degrees = 24;
  /// Nodes with fewer successors than this take the one-word mex (a value
  /// of 64 or more cannot be their mex); the others a bitset. The batches'
  /// 1-byte degrees rely on it.
  static constexpr std::size_t word_mex_degrees = 64;
  /// The bitset mex asks for the value of the successor this many ahead:
  /// a row's gathers miss at random, and more of them overlap than the
  /// core's window holds (docs/TUNING.md#wide-mex-prefetch).
  static constexpr std::size_t wide_mex_prefetch = 48;
  /// Rows of up to this many successors may be read as this many slots, the
  /// ones past the degree masked (mex_masked, in graphs that fit in cache).
  static constexpr std::size_t masked_slots = 8;
  /// A graph in cache whose layers average this many nodes or more takes
  /// the masked mex body (mex_masked) for nodes of up to masked_slots successors:
  /// there degrees vary node after node, and a deep graph's chained values
  /// lose more to the extra slots than the table's calls cost
  /// (docs/TUNING.md#masked-mex).
  static constexpr std::size_t masked_mex_min_width = 16;
};

/// What the SG engine runs with: how its loops are cut, and its tuning.
/// Made from a ParallelConfig (or a thread count) alone, it takes the tuning
/// as measured. Not a ParallelConfig itself: copying one out of it would
/// drop the tuning a test asked for.
struct SolveConfig {
  ParallelConfig loops;
  Tuning tuning;

  // Implicit on purpose: every caller that names no tuning gets the
  // measured one.
  SolveConfig(const ParallelConfig& loops = {}, const Tuning& tuned = {}) : loops(loops), tuning(tuned) {}
  SolveConfig(unsigned threads) : loops{.threads = threads} {}
};

}  // namespace grundy
