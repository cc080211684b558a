#include "grundy/solve/transpose.hpp"

#include <atomic>

namespace grundy {

// Count the in-degrees, turn them into each row's end, then place every edge
// by counting its target's end down: the ends become the starts, so no
// second array of cursors is needed.
Transpose transpose(const CsrView& g, const ParallelConfig& pc) {
  Transpose t;
  t.offsets.assign(std::size_t{g.n} + 1, 0);
  t.sources.resize(g.m);
  edge_t* end = t.offsets.data();
  const bool shared = pc.threads > 1;
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (edge_t i = g.offsets[b]; i < g.offsets[e]; ++i) {
      if (shared) {
        std::atomic_ref<edge_t>(end[g.targets[i]]).fetch_add(1, std::memory_order_relaxed);
      } else {
        ++end[g.targets[i]];
      }
    }
  });
  for (node_t v = 1; v < g.n; ++v) end[v] += end[v - 1];
  t.offsets[g.n] = g.m;
  node_t* sources = t.sources.data();
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t u = b; u < e; ++u) {
      for (edge_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i) {
        const node_t v = g.targets[i];
        const edge_t at = shared ? std::atomic_ref<edge_t>(end[v]).fetch_sub(1, std::memory_order_relaxed) - 1 : --end[v];
        sources[at] = static_cast<node_t>(u);
      }
    }
  });
  return t;
}

}  // namespace grundy
