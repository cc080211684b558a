#include "grundy/level_solver.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "grundy/mex.hpp"

namespace grundy {
namespace {

// Back to front: within a run of narrow layers the deeper ones come last,
// and must be done first. With Identity the node is its own position.
template <bool Identity, class Sg>
void mex_range(const node_t* __restrict order, const edge_t* __restrict off,
               const node_t* __restrict targets, Sg* __restrict sg, BitsetMex& mex,
               std::size_t b, std::size_t e, bool prefetch) {
  for (std::size_t i = e; i-- > b;) {
    if (!Identity && prefetch) {
      // Random ids: start the row loads of nodes a few steps ahead (their
      // offsets first, then their rows), so that misses overlap.
      if (i >= b + 16) __builtin_prefetch(off + order[i - 16]);
      if (i >= b + 8) __builtin_prefetch(targets + off[order[i - 8]]);
    }
    const node_t u = Identity ? static_cast<node_t>(i) : order[i];
    const edge_t first = off[u];
    const auto d = static_cast<std::size_t>(off[u + 1] - first);
    sg[u] = d < 64 ? mex_word(targets + first, d, sg) : mex.wide(targets + first, d, sg);
  }
}

template <bool Identity, class Sg>
void mex_pass(const CsrView& g, const LayerView& layers, const ParallelConfig& pc, Sg* sg,
              PhaseTimer* log) {
  const auto run = [&](BitsetMex& mex, std::size_t b, std::size_t e) {
    mex_range<Identity>(layers.order, g.offsets, g.targets, sg, mex, b, e, g.n >= kCachedNodes);
  };
  // With a layer log, each step (a wide layer, or a run of narrow ones) is
  // timed and its nodes and edges counted; beyond kMaxLogged steps (a deep
  // chain has millions) the rest is folded into the last record.
  constexpr std::size_t kMaxLogged = 100000;
  const auto logged = [&](std::size_t first, std::size_t last, auto&& step) {
    if (log == nullptr) return step();
    const auto t0 = PhaseTimer::clock::now();
    step();
    const double seconds = std::chrono::duration<double>(PhaseTimer::clock::now() - t0).count();
    std::uint64_t edges = 0;
    for (std::size_t i = layers.begin[first]; i < layers.begin[last + 1]; ++i) {
      const node_t u = Identity ? static_cast<node_t>(i) : layers.order[i];
      edges += g.offsets[u + 1] - g.offsets[u];
    }
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
  BitsetMex inline_mex;
  // Made on first use (see layering.cpp: oneTBB's first touch is not free).
  std::optional<tbb::enumerable_thread_specific<BitsetMex>> thread_mex;
  for (std::size_t l = layers.count(); l-- > 0;) {
    if (pc.worth_it(layers.width(l))) {
      if (!thread_mex) thread_mex.emplace();
      logged(l, l, [&] {
        for_range(pc, layers.begin[l], layers.begin[l + 1],
                  [&](std::size_t b, std::size_t e) { run(thread_mex->local(), b, e); });
      });
      continue;
    }
    // Gather the run of narrow layers l, l-1, ... into one inline loop.
    std::size_t first = l;
    while (first > 0 && !pc.worth_it(layers.width(first - 1))) --first;
    logged(first, l, [&] { run(inline_mex, layers.begin[first], layers.begin[l + 1]); });
    l = first;
  }
}

}  // namespace

void level_mex(const CsrView& g, const LayerView& layers, const ParallelConfig& pc, SgValues& sg,
               PhaseTimer* log) {
  sg.visit([&](auto values) {
    if (layers.order == nullptr) {
      mex_pass<true>(g, layers, pc, values.data(), log);
    } else {
      mex_pass<false>(g, layers, pc, values.data(), log);
    }
  });
}

SgValues level_sg(const CsrView& g, const ParallelConfig& pc, PhaseTimer* timer,
                  std::span<const node_t> stored_layers) {
  Layers layers;
  SgValues sg;
  level_sg(g, pc, layers, sg, timer, stored_layers);
  return sg;
}

void level_sg(const CsrView& g, const ParallelConfig& pc, Layers& layers, SgValues& sg,
              PhaseTimer* timer, std::span<const node_t> stored_layers) {
  LayerView view{nullptr, stored_layers};
  if (stored_layers.empty()) {
    if (timer) timer->start("layering");
    compute_layers(g, pc, layers);
    view = {layers.order.data(), layers.begin};
  }
  if (timer) timer->start("mex");
  sg.reset(g.n, g.m);
  level_mex(g, view, pc, sg, timer != nullptr && timer->log_layers ? timer : nullptr);
  if (timer) timer->stop();
}

}  // namespace grundy
