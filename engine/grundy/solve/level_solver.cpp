#include "grundy/solve/level_solver.hpp"
#include "grundy/primitives/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "grundy/solve/mex.hpp"

namespace grundy {
namespace {

// Layers (or parts of one) narrower than this are not batched.
constexpr std::size_t kMinBatch = 64;

// Per-thread scratch of the mex pass: the wide-mex bitset, and a batch of
// nodes with their rows and their successors' values side by side. The
// values are in the pass's own width: smaller buffers, a faster pass
// (docs/TUNING.md#mex-batch-value-width).
template <class Sg>
struct MexScratch {
  BitsetMex mex;
  std::vector<node_t> rows, nodes;
  std::vector<Sg> values;
  std::vector<std::uint8_t> degrees;  // a batch's nodes have fewer than 64 successors
};

// Back to front: within a run of narrow layers the deeper ones come last,
// and must be done first. With Identity the node is its own position, and
// runs of equal out-degree take one body each: known from the file's degree
// runs (`runs`: mex_runs_down, no offset read per node), or, in a file
// written before they were stored, found from the offsets node by node
// (mex_identity_down). Both ways stay: deriving the runs of a file without
// them lost on two threads (docs/TUNING.md#degree-runs).
template <bool Identity, class Sg>
void mex_range(const node_t* __restrict order, std::span<const node_t> runs, const edge_t* __restrict off,
               const node_t* __restrict targets, Sg* __restrict sg, BitsetMex& mex, std::size_t b, std::size_t e,
               bool prefetch) {
  if constexpr (Identity) {
    if (runs.empty()) {
      mex_identity_down(off, targets, sg, mex, b, e);
    } else {
      mex_runs_down(runs, off, targets, sg, mex, b, e);
    }
  } else {
    for (std::size_t i = e; i-- > b;) {
      if (prefetch) {
        // Random ids: start the row loads of nodes a few steps ahead (their
        // offsets first, then their rows, as the batches do: prefetch_row),
        // so that misses overlap (docs/TUNING.md#prefetch-distances).
        if (i >= b + 16) __builtin_prefetch(off + order[i - 16]);
        if (i >= b + 8) prefetch_row(off, targets, order[i - 8]);
      }
      const node_t u = order[i];
      const edge_t first = off[u];
      sg[u] = mex(targets + first, static_cast<std::size_t>(off[u + 1] - first), sg);
    }
  }
}

// The same for positions [b, e) of ONE layer (no node there reads another's
// value), in batches of three loops: collect the nodes and their rows (with
// random ids, copied side by side, their loads prefetched a few nodes
// ahead), gather every successor's value in one flat loop, then take each
// node's mex from the gathered values. The flat gather keeps as many misses
// in flight as the floor kernel's loop does; a loop per node ends on a
// mispredicted exit every ten or so edges.
template <bool Identity, class Sg>
void mex_batched(const node_t* __restrict order, const edge_t* __restrict off, const node_t* __restrict targets,
                 Sg* __restrict sg, MexScratch<Sg>& scratch, std::size_t b, std::size_t e) {
  constexpr std::size_t kEdges = std::size_t{1} << 13, kNodes = 1024;
  scratch.rows.resize(Identity ? 0 : kEdges);
  scratch.values.resize(kEdges);
  scratch.nodes.resize(kNodes);
  scratch.degrees.resize(kNodes);
  node_t* const rows = scratch.rows.data();
  Sg* const values = scratch.values.data();
  node_t* const nodes = scratch.nodes.data();
  std::uint8_t* const degrees = scratch.degrees.data();
  std::size_t i = e;
  while (i > b) {
    std::size_t count = 0, fill = 0;
    const edge_t base = Identity ? off[i] : 0;  // Identity: the batch's edges end here
    for (; i > b && count < kNodes; --i) {
      if constexpr (!Identity) {
        // Rows into L2, both ends (prefetch_row): a row often straddles two
        // lines (docs/TUNING.md#prefetch-distances).
        if (i >= b + 17) __builtin_prefetch(off + order[i - 17]);
        if (i >= b + 9) prefetch_row(off, targets, order[i - 9]);
      }
      const node_t u = Identity ? static_cast<node_t>(i - 1) : order[i - 1];
      const edge_t first = off[u];
      const auto d = static_cast<std::size_t>(off[u + 1] - first);
      if (d >= 64 || fill + d > kEdges) break;  // taken alone, after the batch
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
      const node_t* const flat = Identity ? targets + (base - fill) : rows;
      for (std::size_t j = 0; j < fill; ++j) values[j] = sg[flat[j]];
      // Node k's values: Identity, in id order from the front; copied rows,
      // in batch order from the front.
      std::size_t at = 0;
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t c = Identity ? count - 1 - k : k;
        std::uint64_t seen = 0;
        for (std::size_t j = at; j < at + degrees[c]; ++j) seen |= mex_bit(values[j]);
        sg[nodes[c]] = static_cast<Sg>(std::countr_one(seen));
        at += degrees[c];
      }
    } else {  // a node of 64 successors or more, or more than a batch holds
      --i;
      const node_t u = Identity ? static_cast<node_t>(i) : order[i];
      sg[u] = scratch.mex(targets + off[u], static_cast<std::size_t>(off[u + 1] - off[u]), sg);
    }
  }
}

template <bool Identity, class Sg>
void mex_pass(const CsrView& g, const LayerView& layers, const ParallelConfig& pc, Sg* sg, PhaseTimer* log) {
  // Batches pay where the values gathered miss the cache: random ids from
  // kCachedNodes nodes on, layered ids only from about 3*10^6 nodes, where
  // the pass reads ahead of its values' reach (docs/TUNING.md#mex-batches).
  const bool batched = g.n >= (Identity ? pc.min_batch_layered_graph : pc.min_batch_graph);
  // b, e: a part of one layer.
  const auto run_part = [&](MexScratch<Sg>& scratch, std::size_t b, std::size_t e) {
    if (batched && e - b >= kMinBatch) {
      mex_batched<Identity>(layers.order, g.offsets, g.targets, sg, scratch, b, e);
    } else {
      mex_range<Identity>(layers.order, layers.degree_runs, g.offsets, g.targets, sg, scratch.mex, b, e,
                          g.n >= kCachedNodes);
    }
  };
  // Layers [first, last], deepest first. Consecutive layers too narrow to
  // batch go to one mex_range, whose prefetches then reach across them
  // (docs/TUNING.md#narrow-layers).
  const auto run = [&](MexScratch<Sg>& scratch, std::size_t first, std::size_t last) {
    if (!batched) return run_part(scratch, layers.begin[first], layers.begin[last + 1]);
    std::size_t end = layers.begin[last + 1];  // positions [.., end) are left to do
    for (std::size_t l = last + 1; l-- > first;) {
      if (layers.width(l) < kMinBatch) continue;
      mex_range<Identity>(layers.order, layers.degree_runs, g.offsets, g.targets, sg, scratch.mex, layers.begin[l + 1],
                          end, g.n >= kCachedNodes);
      run_part(scratch, layers.begin[l], layers.begin[l + 1]);
      end = layers.begin[l];
    }
    mex_range<Identity>(layers.order, layers.degree_runs, g.offsets, g.targets, sg, scratch.mex, layers.begin[first],
                        end, g.n >= kCachedNodes);
  };
  // The edges leaving positions [b, e) of the order (with Identity, the
  // rows of ids b..e-1 lie side by side).
  const auto edges_at = [&](std::size_t b, std::size_t e) -> std::uint64_t {
    return Identity ? g.offsets[e] - g.offsets[b] : g.edges_of({layers.order + b, e - b});
  };
  // With a layer log, each step (a wide layer, or a run of narrow ones) is
  // timed and its nodes and edges counted; beyond kMaxLogged steps (a deep
  // chain has millions) the rest is folded into the last record.
  constexpr std::size_t kMaxLogged = 100000;
  const auto record = [&](std::size_t first, std::size_t last, PhaseTimer::clock::time_point t0,
                          PhaseTimer::clock::time_point t1) {
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    const std::uint64_t edges = edges_at(layers.begin[first], layers.begin[last + 1]);
    const std::uint64_t nodes = layers.begin[last + 1] - layers.begin[first];
    if (log->layers.size() < kMaxLogged) {
      log->layers.push_back({first, last, nodes, edges, log->since(t0), seconds});
    } else {
      LayerStat& rest = log->layers.back();
      rest.first_layer = std::min<std::uint64_t>(rest.first_layer, first);
      rest.nodes += nodes;
      rest.edges += edges;
      rest.seconds += seconds;
    }
  };
  const auto logged = [&](std::size_t first, std::size_t last, auto&& step) {
    if (log == nullptr) return step();
    const auto t0 = PhaseTimer::clock::now();
    step();
    record(first, last, t0, PhaseTimer::clock::now());
  };
  // A layer's edges, where they decide whether it is split (a layer too
  // narrow in nodes, but heavy: parallel.hpp). Not counted for layers that
  // are wide enough anyway, or too narrow to split (a chain's 10^7 layers);
  // with random ids the count reads the layer's offsets, which its mex then
  // finds in cache. The last answer is kept: each layer is asked twice.
  std::size_t asked = layers.count(), answer = 0;
  const auto work = [&](std::size_t l) -> std::size_t {
    if (!pc.weighs(layers.width(l))) return 0;
    if (l != asked) {
      asked = l;
      answer = edges_at(layers.begin[l], layers.begin[l + 1]);
    }
    return answer;
  };
  // Whether layer l gets a parallel loop; the common answers (wide, or far
  // too narrow: a chain's 10^7 layers) without a call.
  const auto split = [&](std::size_t l) {
    const std::size_t w = layers.width(l);
    return pc.worth_it(w) || (pc.weighs(w) && pc.worth_it(w, work(l)));
  };
  MexScratch<Sg> inline_mex;
  // Made on first use (see layering.cpp: oneTBB's first touch is not free).
  std::optional<PerThread<MexScratch<Sg>>> thread_mex;
  // A run of layers, each split between threads, deepest first, in
  // one parallel loop: a layer's pieces wait for the deeper layers' pieces
  // still running, not for a barrier and a new loop per layer (for_phases):
  // where layers are short, those barriers cost (docs/TUNING.md#for-phases).
  std::vector<PhaseRange> phases;
  std::vector<PhaseTimer::clock::time_point> stamps;
  // Layer l as a phase, right after split(l) (its work is then the cached answer).
  const auto add_phase = [&](std::size_t l) {
    const std::size_t b = layers.begin[l], e = layers.begin[l + 1];
    phases.push_back({b, e, pc.grain_for(e - b, work(l))});
  };
  // `phases` holds layers last, last-1, ... (deepest first).
  const auto run_split = [&](std::size_t last) {
    if (log != nullptr) stamps.assign(phases.size() + 1, PhaseTimer::clock::now());
    for_phases(
        pc, phases, [&](std::size_t b, std::size_t e) { run_part(thread_mex->local(), b, e); },
        [&](std::size_t p) {
          if (log != nullptr) stamps[p + 1] = PhaseTimer::clock::now();
        });
    // Each layer's span: from the deeper layer's end to its own.
    for (std::size_t p = 0; log != nullptr && p < phases.size(); ++p)
      record(last - p, last - p, stamps[p], stamps[p + 1]);
  };
  for (std::size_t l = layers.count(); l-- > 0;) {
    if (split(l)) {
      if (!thread_mex) thread_mex.emplace();
      phases.clear();
      add_phase(l);
      std::size_t first = l;
      for (; first > 0 && split(first - 1); --first) add_phase(first - 1);
      run_split(l);
      l = first;
      continue;
    }
    // Gather the run of narrow layers l, l-1, ... into one inline loop.
    std::size_t first = l;
    while (first > 0 && !split(first - 1)) --first;
    logged(first, l, [&] { run(inline_mex, first, l); });
    l = first;
  }
}

}  // namespace

void level_mex(const CsrView& g, const LayerView& layers, const ParallelConfig& pc, SgValues& sg, PhaseTimer* log) {
  sg.visit([&](auto values) {
    if (layers.order == nullptr) {
      mex_pass<true>(g, layers, pc, values.data(), log);
    } else {
      mex_pass<false>(g, layers, pc, values.data(), log);
    }
  });
}

SgValues level_sg(const CsrView& g, const ParallelConfig& pc, PhaseTimer* timer, const StoredLayers& stored) {
  Layers layers;
  SgValues sg;
  level_sg(g, pc, layers, sg, timer, stored);
  return sg;
}

void level_sg(const CsrView& g, const ParallelConfig& pc, Layers& layers, SgValues& sg, PhaseTimer* timer,
              const StoredLayers& stored) {
  LayerView view{nullptr, stored.begin, stored.degree_runs};
  if (stored.empty()) {
    if (timer) timer->start("layering");
    compute_layers(g, pc, layers, InDegreeWidth::automatic, timer ? &timer->layering_parts : nullptr);
    view = {layers.order.data(), layers.begin, {}};
  }
  if (timer) timer->start("mex");
  sg.reset(g.n, g.m);
  level_mex(g, view, pc, sg, timer != nullptr && timer->log_layers ? timer : nullptr);
  if (timer) timer->stop();
}

}  // namespace grundy
