#include "grundy/solve/level_solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>

#include "grundy/core/cycle.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/solve/locality_order.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/shared_values.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy {
namespace {

// Per-thread scratch of the mex pass: the wide-mex bitset, and a batch of
// nodes with their rows and their successors' values side by side. The
// values are in the pass's own width: smaller buffers, a faster pass
// (docs/TUNING.md#mex-batch-value-width).
template <class Sg>
struct MexScratch {
  BitsetMex mex;
  std::vector<node_t> rows, nodes;
  std::vector<Sg> values;
  std::vector<std::uint8_t> degrees;  // a batch's nodes have fewer than Tuning::word_mex_degrees successors
  SolveAheadScratch ahead;  // the dataflow pass's
};

// Back to front: within a run of narrow layers the deeper ones come last,
// and must be done first. With Identity the node is its own position, and
// runs of equal out-degree take one body each: known from the file's degree
// runs (`runs`: mex_runs_down, no offset read per node), or, in a file
// written before they were stored, found from the offsets node by node
// (mex_identity_down). Both ways stay: deriving the runs of a file without
// them lost on two threads (docs/TUNING.md#degree-runs). Otherwise, a row
// of at most Tuning::masked_slots successors that ends that many slots or
// more before `masked_end` takes the masked body (0: none does; always 0
// with shared values, as the body reads values plainly). Values are
// written, and with random ids read, through `values` (shared_values.hpp).
// Returns the edges leaving the range.
template <bool Identity, class Sg, class Target, class Values>
std::uint64_t mex_range(const node_t* __restrict order, std::span<const node_t> runs, const edge_t* __restrict off,
                        const Target* __restrict targets, Sg* sg, Values& values, BitsetMex& mex, std::size_t b,
                        std::size_t e, bool prefetch, std::size_t masked_end) {
  if constexpr (Identity) {
    if (runs.empty()) {
      mex_identity_down(off, targets, sg, mex, b, e);
    } else {
      mex_runs_down(runs, off, targets, sg, mex, b, e);
    }
    return off[e] - off[b];
  } else {
    std::uint64_t edges = 0;
    for (std::size_t i = e; i-- > b;) {
      if (prefetch) {
        // Random ids: start the row loads of nodes a few steps ahead (their
        // offsets first, then their rows, as the batches do: prefetch_row),
        // so that misses overlap (docs/TUNING.md#prefetch-distances).
        constexpr std::size_t far = Tuning::mex_prefetch_offsets, near = Tuning::mex_prefetch_row;
        if (i >= b + far) __builtin_prefetch(off + order[i - far]);
        if (i >= b + near) prefetch_row(off, targets, order[i - near]);
      }
      const node_t u = order[i];
      const edge_t first = off[u];
      const auto d = static_cast<std::size_t>(off[u + 1] - first);
      edges += d;
      if (d <= Tuning::masked_slots && first + Tuning::masked_slots <= masked_end) {
        values.put(u, mex_masked(targets + first, d, sg));
      } else {
        values.put(u, values.mex(mex, targets + first, d));
      }
    }
    return edges;
  }
}

// The same for positions [b, e) of ONE layer (no node there reads another's
// value), in batches of three loops: collect the nodes and their rows (with
// random ids, copied side by side, their loads prefetched a few nodes
// ahead), gather every successor's value in one flat loop, then take each
// node's mex from the gathered values. The flat gather keeps as many misses
// in flight as the floor kernel's loop does; a loop per node ends on a
// mispredicted exit every ten or so edges. Sinks are passed over, their
// value written at once: most of an R-MAT graph's first layer is isolated
// nodes (docs/TUNING.md#mex-batches). Values are read and written through
// `values` (shared_values.hpp); `sg` is only prefetched. Returns the edges
// leaving [b, e).
template <bool Identity, class Sg, class Target, class Values>
std::uint64_t mex_batched(const node_t* __restrict order, const edge_t* __restrict off,
                          const Target* __restrict targets, const Sg* sg, Values& values,
                          MexScratch<Sg>& scratch, std::size_t b, std::size_t e) {
  constexpr std::size_t kEdges = Tuning::batch_edges, kNodes = Tuning::batch_nodes;
  constexpr std::size_t far = Tuning::batch_prefetch_offsets, near = Tuning::batch_prefetch_row;
  scratch.rows.resize(Identity ? 0 : kEdges);
  scratch.values.resize(kEdges);
  scratch.nodes.resize(kNodes);
  scratch.degrees.resize(kNodes);
  node_t* const rows = scratch.rows.data();
  Sg* const gathered = scratch.values.data();
  node_t* const nodes = scratch.nodes.data();
  std::uint8_t* const degrees = scratch.degrees.data();
  std::uint64_t edges = 0;
  std::size_t i = e;
  while (i > b) {
    std::size_t count = 0, fill = 0;
    const edge_t base = Identity ? off[i] : 0;  // Identity: the batch's edges end here
    for (; i > b && count < kNodes; --i) {
      if constexpr (!Identity) {
        // Rows into L2, both ends (prefetch_row): a row often straddles two
        // lines (docs/TUNING.md#prefetch-distances).
        if (i >= b + far) __builtin_prefetch(off + order[i - far]);
        if (i >= b + near) prefetch_row(off, targets, order[i - near]);
      }
      const node_t u = Identity ? static_cast<node_t>(i - 1) : order[i - 1];
      const edge_t first = off[u];
      const auto d = static_cast<std::size_t>(off[u + 1] - first);
      if (d == 0) {
        values.put(u, Sg{0});
        continue;
      }
      if (d >= Tuning::word_mex_degrees || fill + d > kEdges) break;  // taken alone, after the batch
      if constexpr (!Identity) {
        copy_row(targets + first, d, rows + fill);
        // Ask for the successors' values as their ids arrive, into L2 (a
        // batch's 8192 values' lines fit there, not in L1): their misses
        // then overlap the next rows' misses, and the gather below finds
        // them near (docs/TUNING.md#value-prefetch).
        for (std::size_t j = 0; j < d; ++j) __builtin_prefetch(sg + rows[fill + j], 0, 2);
      }
      fill += d;
      nodes[count] = u;
      degrees[count++] = static_cast<std::uint8_t>(d);
    }
    if (count > 0) {
      // Identity: the batch's rows lie side by side already, in the file.
      const auto* const flat = [&] {
        if constexpr (Identity) return targets + (base - fill);
        else return static_cast<const node_t*>(rows);
      }();
      for (std::size_t j = 0; j < fill; ++j) gathered[j] = values.get(flat[j]);
      // Node k's values: Identity, in id order from the front; copied rows,
      // in batch order from the front.
      std::size_t at = 0;
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t c = Identity ? count - 1 - k : k;
        std::uint64_t seen = 0;
        for (std::size_t j = at; j < at + degrees[c]; ++j) seen |= mex_bit(gathered[j]);
        values.put(nodes[c], static_cast<Sg>(std::countr_one(seen)));
        at += degrees[c];
      }
      edges += fill;
    } else if (i > b) {  // a node of 64 successors or more, or more than a batch holds (none: only sinks were left)
      --i;
      const node_t u = Identity ? static_cast<node_t>(i) : order[i];
      const auto d = static_cast<std::size_t>(off[u + 1] - off[u]);
      values.put(u, values.mex(scratch.mex, targets + off[u], d));
      edges += d;
    }
  }
  return edges;
}

// The mex pass over every layer, deepest first: runs of layers split
// between threads go to one for_phases loop, runs of narrow layers to one
// inline loop; with a layer log, each step is timed. Over random ids on two
// threads or more, one dataflow loop instead (run_dataflow).
template <bool Identity, class Sg, class Csr>
class MexPass {
  using Shared = SharedValues<Sg, typename Csr::target_type>;

 public:
  MexPass(const Csr& g, const LayerView& layers, const SolveConfig& config, Sg* sg, PhaseTimer* log)
      : g_(g),
        layers_(layers),
        pc_(config.loops),
        sg_(sg),
        log_(log),
        // Batches pay where the values gathered miss the cache: random ids
        // from one size on, layered ids only from a larger one
        // (docs/TUNING.md#mex-batches).
        batched_(g.n >= (Identity ? config.tuning.batch_layered_mex_from : config.tuning.batch_mex_from)),
        prefetch_(g.n >= Tuning::cached_nodes),
        masked_end_(!prefetch_ && layers.count() * Tuning::masked_mex_min_width <= g.n ? g.m : 0),
        // Random ids on two threads or more, in layers wide enough on
        // average to share, where no value can be the unsolved mark
        // (docs/TUNING.md#dataflow-mex).
        dataflow_(!Identity && config.loops.threads > 1 && g.n >= config.tuning.dataflow_mex_from &&
                  layers.count() * config.tuning.dataflow_mean_width <= g.n && Shared::fit(g.m)),
        asked_(layers.count()) {}

  void run() {
    if (dataflow_) return run_dataflow();
    for (std::size_t l = layers_.count(); l-- > 0;) l = split(l) ? run_split_layers(l) : run_narrow_layers(l);
  }

 private:
  // Gathers the run of split layers l, l-1, ... into one for_phases loop:
  // a layer's pieces wait for the deeper layers' pieces still running, not
  // for a barrier and a new loop per layer; where layers are short, those
  // barriers cost (docs/TUNING.md#for-phases). With a layer log, each
  // layer's edges are summed from its pieces: counting them afterwards from
  // random ids would read every node's offsets again inside the timed pass
  // (docs/TUNING.md#profiling-cost). Returns the run's first layer.
  std::size_t run_split_layers(std::size_t last) {
    if (!thread_mex_) thread_mex_.emplace();
    phases_.clear();
    add_phase(last);
    std::size_t first = last;
    for (; first > 0 && split(first - 1); --first) add_phase(first - 1);
    trace::Span span("mex split layers", "mex");
    span.arg("layers", phases_.size());
    if (log_ != nullptr) {
      stamps_.assign(phases_.size() + 1, PhaseTimer::clock::now());
      phase_edges_.assign(phases_.size(), 0);
    }
    for_phases(
        pc_, phases_,
        [&](std::size_t b, std::size_t e, std::size_t p) {
          const std::uint64_t edges = run_part(thread_mex_->local(), b, e, false);
          if (log_ != nullptr) std::atomic_ref(phase_edges_[p]).fetch_add(edges, std::memory_order_relaxed);
        },
        [&](std::size_t p) {
          if (log_ != nullptr) stamps_[p + 1] = PhaseTimer::clock::now();
        });
    // Each layer's span: from the deeper layer's end to its own.
    for (std::size_t p = 0; log_ != nullptr && p < phases_.size(); ++p)
      record(last - p, last - p, phase_edges_[p], stamps_[p], stamps_[p + 1]);
    return first;
  }

  // Every layer in one parallel loop with no barrier between layers: the
  // threads take pieces of the order, deepest first, from one counter, and
  // a value not yet written is solved by the thread that needs it, or past
  // a short walk waited for (SharedValues). A thread waits only for pieces
  // taken before its own, held by running threads, so the loop finishes
  // with however many threads oneTBB lends it. With a layer log, the pass
  // is one step.
  void run_dataflow() {
    trace::Span span("mex dataflow", "mex");
    const auto t0 = PhaseTimer::clock::now();
    for_range(pc_, 0, g_.n, [&](std::size_t b, std::size_t e) { std::fill(sg_ + b, sg_ + e, Shared::unsolved); });
    if (!thread_mex_) thread_mex_.emplace();
    std::atomic<std::size_t> next{g_.n};  // positions [0, next) are not taken yet
    std::atomic<std::uint64_t> edges{0};
    for_tasks(pc_, pc_.threads, [&](std::size_t) {
      MexScratch<Sg>& scratch = thread_mex_->local();
      Shared values(g_.offsets, g_.targets, sg_, scratch.ahead);
      std::uint64_t mine = 0;
      std::size_t size = 16;  // the first piece's nodes, until a piece shows how many edges a node has here
      for (std::size_t b = 0, e = 0; take_piece(next, size, b, e);) {
        trace::Span piece("mex piece", "mex");
        piece.merge_with_previous();
        const std::uint64_t piece_edges = run_shared_piece(values, scratch, b, e);
        mine += piece_edges;
        size = std::clamp<std::size_t>(Tuning::dataflow_piece_edges * (e - b) / std::max<std::uint64_t>(piece_edges, 1),
                                       1, Tuning::dataflow_piece_nodes);
      }
      edges.fetch_add(mine, std::memory_order_relaxed);
    });
    if (log_ != nullptr) record(0, layers_.count() - 1, edges.load(), t0, PhaseTimer::clock::now());
  }

  // Takes the next piece, [b, e), of about `size` nodes; false when none is left.
  bool take_piece(std::atomic<std::size_t>& next, std::size_t size, std::size_t& b, std::size_t& e) const {
    e = next.load(std::memory_order_relaxed);
    while (e > 0 && !next.compare_exchange_weak(e, b = piece_start(e, size), std::memory_order_relaxed)) {
    }
    return e > 0;
  }

  // Where a piece of `size` nodes down from position e starts. Within a
  // layer wide enough to batch: at most 1 / (threads * dataflow_layer_pieces)
  // of it, so that its pieces end close together, and never past its start
  // (the next layer's nodes need this layer's other pieces, and would solve
  // them ahead twice over). Across narrow layers: `size` nodes.
  std::size_t piece_start(std::size_t e, std::size_t size) const {
    const auto begin = layers_.begin;
    const std::size_t l = layer_of(e - 1), width = begin[l + 1] - begin[l];
    if (width < Tuning::min_batch_width) return e - std::min(e, size);
    const std::size_t share = std::size_t{pc_.threads} * Tuning::dataflow_layer_pieces;
    size = std::min(size, (width + share - 1) / share);
    return std::max<std::size_t>(begin[l], e - std::min(e, size));
  }

  // Positions [b, e) of the order, deepest first: the parts of layers wide
  // enough in batches (which stop at a layer's end, or a batch would solve
  // its own nodes ahead), the runs of narrow ones node by node. Returns
  // their edges.
  std::uint64_t run_shared_piece(Shared& values, MexScratch<Sg>& scratch, std::size_t b, std::size_t e) {
    const auto begin = layers_.begin;
    std::size_t l = layer_of(e - 1);
    std::uint64_t edges = 0;
    std::size_t narrow_end = e;  // positions [i, narrow_end) are left to do, node by node
    for (std::size_t i = e; i > b; --l) {
      const std::size_t lb = std::max<std::size_t>(begin[l], b);
      if (i - lb >= Tuning::min_batch_width) {
        edges += run_shared_nodes(values, scratch, i, narrow_end);
        edges += mex_batched<false>(layers_.order, g_.offsets, g_.targets, sg_, values, scratch, lb, i);
        narrow_end = lb;
      }
      i = lb;
    }
    return edges + run_shared_nodes(values, scratch, b, narrow_end);
  }

  // The layer holding position i of the order.
  std::size_t layer_of(std::size_t i) const {
    const auto begin = layers_.begin;
    return static_cast<std::size_t>(std::upper_bound(begin.begin(), begin.end(), i) - begin.begin()) - 1;
  }

  // Positions [b, e), possibly across layers, node by node through shared values.
  std::uint64_t run_shared_nodes(Shared& values, MexScratch<Sg>& scratch, std::size_t b, std::size_t e) {
    return mex_range<false>(layers_.order, {}, g_.offsets, g_.targets, sg_, values, scratch.mex, b, e, true, 0);
  }

  // Layer l as a phase, right after split(l) (its work is then the cached answer).
  void add_phase(std::size_t l) {
    const std::size_t b = layers_.begin[l], e = layers_.begin[l + 1];
    phases_.push_back({b, e, pc_.grain_for(e - b, work(l))});
  }

  // Gathers the run of narrow layers l, l-1, ... into one inline loop.
  // Returns the run's first layer.
  std::size_t run_narrow_layers(std::size_t last) {
    std::size_t first = last;
    while (first > 0 && !split(first - 1)) --first;
    trace::Span span("mex narrow layers", "mex");
    span.arg("layers", last - first + 1);
    if (log_ == nullptr) {
      run_inline(first, last);
    } else {
      const auto t0 = PhaseTimer::clock::now();
      const std::uint64_t edges = run_inline(first, last);
      record(first, last, edges, t0, PhaseTimer::clock::now());
    }
    return first;
  }

  // Layers [first, last], deepest first, on this thread. Consecutive layers
  // too narrow to batch go to one mex_range, whose prefetches then reach
  // across them (docs/TUNING.md#narrow-layers). Returns their edges.
  std::uint64_t run_inline(std::size_t first, std::size_t last) {
    if (!batched_) return run_part(inline_mex_, layers_.begin[first], layers_.begin[last + 1], true);
    std::uint64_t edges = 0;
    std::size_t end = layers_.begin[last + 1];  // positions [.., end) are left to do
    for (std::size_t l = last + 1; l-- > first;) {
      if (layers_.width(l) < Tuning::min_batch_width) continue;
      edges += run_unbatched(inline_mex_, layers_.begin[l + 1], end, true);
      edges += run_part(inline_mex_, layers_.begin[l], layers_.begin[l + 1], true);
      end = layers_.begin[l];
    }
    return edges + run_unbatched(inline_mex_, layers_.begin[first], end, true);
  }

  // Positions [b, e): a part of one layer. `alone`: no other thread writes
  // values meanwhile (an inline run), so the masked mex may read slots past
  // a row, whose nodes may be in this very layer; a piece of a split layer
  // must not (a data race, even with those values masked out). Returns the
  // part's edges.
  std::uint64_t run_part(MexScratch<Sg>& scratch, std::size_t b, std::size_t e, bool alone) {
    trace::Span span("mex piece", "mex");
    span.merge_with_previous();
    if (batched_ && e - b >= Tuning::min_batch_width)
      return mex_batched<Identity>(layers_.order, g_.offsets, g_.targets, sg_, plain_, scratch, b, e);
    return run_unbatched(scratch, b, e, alone);
  }

  // Positions [b, e), possibly across layers, deepest first; returns their edges.
  std::uint64_t run_unbatched(MexScratch<Sg>& scratch, std::size_t b, std::size_t e, bool alone) {
    return mex_range<Identity>(layers_.order, layers_.degree_runs, g_.offsets, g_.targets, sg_, plain_, scratch.mex, b,
                               e, prefetch_, alone ? masked_end_ : 0);
  }

  // Whether layer l gets a parallel loop; the common answers (wide, or far
  // too narrow: a chain's 10^7 layers) without counting edges.
  bool split(std::size_t l) {
    const std::size_t w = layers_.width(l);
    return pc_.worth_it(w) || (pc_.weighs(w) && pc_.worth_it(w, work(l)));
  }

  // A layer's edges, where they decide whether it is split (a layer too
  // narrow in nodes, but heavy: parallel.hpp). Not counted for layers that
  // are wide enough anyway, or too narrow to split; with random ids the
  // count reads the layer's offsets, which its mex then finds in cache. The
  // last answer is kept: each layer is asked twice.
  std::size_t work(std::size_t l) {
    if (!pc_.weighs(layers_.width(l))) return 0;
    if (l != asked_) {
      asked_ = l;
      answer_ = edges_at(layers_.begin[l], layers_.begin[l + 1]);
    }
    return answer_;
  }

  // The edges leaving positions [b, e) of the order (with Identity, the
  // rows of ids b..e-1 lie side by side).
  std::uint64_t edges_at(std::size_t b, std::size_t e) const {
    return Identity ? g_.offsets[e] - g_.offsets[b] : g_.edges_of({layers_.order + b, e - b});
  }

  // Logs a step (a split layer, or a run of narrow ones) with its nodes and
  // edges; beyond kMaxLogged steps (a deep chain has millions) the rest is
  // folded into the last record.
  void record(std::size_t first, std::size_t last, std::uint64_t edges, PhaseTimer::clock::time_point t0,
              PhaseTimer::clock::time_point t1) {
    constexpr std::size_t kMaxLogged = 100000;
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    const std::uint64_t nodes = layers_.begin[last + 1] - layers_.begin[first];
    trace::counter("mex step edges", edges);
    if (log_->layers.size() < kMaxLogged) {
      log_->layers.push_back({first, last, nodes, edges, log_->since(t0), seconds});
    } else {
      LayerStat& rest = log_->layers.back();
      rest.first_layer = std::min<std::uint64_t>(rest.first_layer, first);
      rest.nodes += nodes;
      rest.edges += edges;
      rest.seconds += seconds;
    }
  }

  const Csr& g_;
  const LayerView& layers_;
  const ParallelConfig& pc_;
  Sg* const sg_;
  PhaseTimer* const log_;
  const bool batched_;
  const bool prefetch_;             // past the cache: prefetch the rows of unbatched nodes
  const edge_t masked_end_;         // inline, rows may be read as Tuning::masked_slots slots up to here (0: never)
  const bool dataflow_;             // run_dataflow(), not layer by layer
  PlainValues<Sg> plain_{sg_};
  std::size_t asked_, answer_ = 0;  // work(): the last layer asked, and its edges
  MexScratch<Sg> inline_mex_;
  // Made on first use (see layering.cpp: oneTBB's first touch is not free).
  std::optional<PerThread<MexScratch<Sg>>> thread_mex_;
  std::vector<PhaseRange> phases_;  // layers last, last-1, ... (deepest first)
  std::vector<PhaseTimer::clock::time_point> stamps_;
  std::vector<std::uint64_t> phase_edges_;  // with a layer log: each phase's edges, summed by its pieces
};

// The depth-first pass as the phase "dfs + mex", the depth set when
// scratch asks for it; false where its path would pass max_path nodes.
template <class Target>
bool timed_walk(const BasicCsr<Target>& g, LevelScratch& scratch, SgValues& sg, PhaseTimer* timer,
                std::size_t max_path = SIZE_MAX) {
  if (timer) timer->start("dfs + mex");
  const bool walked =
      depth_first_sg(g, scratch.depth_first, sg, scratch.wants_depth ? &scratch.depth : nullptr, max_path);
  if (timer) timer->stop();
  return walked;
}

// A deep graph: renumbered in a locality order, then walked depth first or
// layered and solved so (either then reads memory nearly in order), and its
// values put back under the old ids. A cycle is named in the old ids.
template <class Target>
void reordered_sg(const BasicCsr<Target>& g, const SolveConfig& config, LevelScratch& scratch, SgValues& sg,
                  PhaseTimer* timer) {
  const LocalityRenumbering r = renumber_by_locality(g, config, timer);
  // Walked where the walk's path and values fit the budget beside the renumbering.
  const std::uint64_t walk_bytes = depth_first_bytes(g.n, scratch.wants_depth) + std::uint64_t{g.n} * sizeof(sg_t);
  const bool walk = walks_renumbered(g, config) && renumbering_fits(g, walk_bytes);
  SgValues local_sg;
  try {
    if (walk) {
      timed_walk(r.view, scratch, local_sg, timer);
    } else {
      SolveConfig as_is = config;
      as_is.tuning.reorder_deep_from = SIZE_MAX;  // layered as it now lies
      level_sg(r.view, as_is, scratch, local_sg, timer);
    }
  } catch (const CycleError& e) {
    throw r.in_old_ids(e);
  }
  if (timer) timer->start("values back");
  sg.reset(g.n, g.m);
  sg.visit([&]<class Sg>(std::span<Sg> values) {
    local_sg.visit([&](auto from) {
      for_range(config.loops, 0, g.n, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) values[r.order[i]] = static_cast<Sg>(from[i]);
      });
    });
  });
  if (timer) timer->stop();
}

}  // namespace

template <class Target>
void level_mex(const BasicCsr<Target>& g, const LayerView& layers, const SolveConfig& config, SgValues& sg,
               PhaseTimer* log) {
  sg.visit([&]<class Sg>(std::span<Sg> values) {
    if (layers.order == nullptr) {
      MexPass<true, Sg, BasicCsr<Target>>(g, layers, config, values.data(), log).run();
    } else {
      MexPass<false, Sg, BasicCsr<Target>>(g, layers, config, values.data(), log).run();
    }
  });
}

template <class Target>
SgValues level_sg(const BasicCsr<Target>& g, const SolveConfig& config, PhaseTimer* timer, const StoredLayers& stored) {
  LevelScratch scratch;
  SgValues sg;
  level_sg(g, config, scratch, sg, timer, stored);
  return sg;
}

template <class Target>
void level_sg(const BasicCsr<Target>& g, const SolveConfig& config, LevelScratch& scratch, SgValues& sg,
              PhaseTimer* timer, const StoredLayers& stored) {
  const auto walk = [&](std::size_t max_path) { return timed_walk(g, scratch, sg, timer, max_path); };
  // A graph with hubs that turns out deep gives the walk up and is layered.
  if (stored.empty() && takes_depth_first(g, config, scratch.wants_depth) && walk(depth_first_path_bound(g, config)))
    return;
  Layers& layers = scratch.layers;
  LayerView view{nullptr, stored.begin, stored.degree_runs};
  if (stored.empty()) {
    if (timer) timer->start("layering");
    // Parts kept apart until the layering is the one used: a layering
    // stopped as deep was a depth check, and the renumbered graph's is timed.
    LayeringParts tried;
    LayeringParts* const parts = timer ? &tried : nullptr;
    const bool walks_if_deep = walks_when_deep(g, config);
    if (!compute_layers_unless_deep(g, config, layers, scratch.counters, parts, walks_if_deep)) {
      if (walks_if_deep && walk(SIZE_MAX)) return;  // the rounds were a depth check
      if (renumbering_fits(g, solve_memory_bytes(g.n, g.m, Algo::level, false)))
        return reordered_sg(g, config, scratch, sg, timer);
      // No room to solve a renumbered copy: layers for the graph as it lies.
      layer_deep_graph(g, config, layers, scratch.counters, parts);
    }
    if (timer) timer->layering_parts.add(tried);
    view = {layers.order.data(), layers.begin, {}};
  }
  scratch.depth = view.count();
  if (timer) timer->start("mex");
  sg.reset(g.n, g.m);
  level_mex(g, view, config, sg, timer != nullptr && timer->log_layers ? timer : nullptr);
  if (timer) timer->stop();
}

template void level_mex(const CsrView&, const LayerView&, const SolveConfig&, SgValues&, PhaseTimer*);
template void level_mex(const WideCsrView&, const LayerView&, const SolveConfig&, SgValues&, PhaseTimer*);
template SgValues level_sg(const CsrView&, const SolveConfig&, PhaseTimer*, const StoredLayers&);
template SgValues level_sg(const WideCsrView&, const SolveConfig&, PhaseTimer*, const StoredLayers&);
template void level_sg(const CsrView&, const SolveConfig&, LevelScratch&, SgValues&, PhaseTimer*, const StoredLayers&);
template void level_sg(const WideCsrView&, const SolveConfig&, LevelScratch&, SgValues&, PhaseTimer*,
                       const StoredLayers&);

}  // namespace grundy
