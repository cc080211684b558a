#include "grundy/solve/transpose.hpp"

namespace grundy {

// Count the in-degrees, turn them into each row's end, then place every edge
// by counting its target's end down: the ends become the starts, so no
// second array of cursors is needed. With several threads each owns a range
// of targets and reads every edge, keeping its own: no atomics, no shared
// cache lines (atomic increments made two threads slower than one), and
// each row's predecessors come out in the same order for any thread count.
template <class Target>
Transpose transpose(const BasicCsr<Target>& g, const ParallelConfig& pc) {
  Transpose t;
  t.offsets.assign(std::size_t{g.n} + 1, 0);
  t.sources.resize(g.m);
  edge_t* end = t.offsets.data();
  node_t* sources = t.sources.data();
  const std::size_t owners = pc.worth_it(g.n) && g.m >= pc.min_parallel ? pc.threads : 1;
  const auto own = [&](std::size_t k) { return static_cast<node_t>(std::uint64_t{g.n} * k / owners); };
  for_tasks(pc, owners, [&](std::size_t k) {
    const node_t lo = own(k), width = own(k + 1) - lo;
    for (edge_t i = 0; i < g.m; ++i)
      if (const node_t v = g.targets[i]; v - lo < width) ++end[v];
  });
  for (node_t v = 1; v < g.n; ++v) end[v] += end[v - 1];
  t.offsets[g.n] = g.m;
  for_tasks(pc, owners, [&](std::size_t k) {
    const node_t lo = own(k), width = own(k + 1) - lo;
    for (node_t u = 0; u < g.n; ++u)
      for (edge_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
        if (const node_t v = g.targets[i]; v - lo < width) sources[--end[v]] = u;
  });
  return t;
}

template Transpose transpose(const CsrView&, const ParallelConfig&);
template Transpose transpose(const WideCsrView&, const ParallelConfig&);

}  // namespace grundy
