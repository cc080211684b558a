#include "grundy/serial_solver.hpp"

#include <algorithm>

#include "grundy/cycle.hpp"

namespace grundy {

std::vector<sg_t> serial_sg(const CsrView& g) {
  // Kahn's algorithm: order[] ends up topological (every edge points forward).
  std::vector<node_t> indegree(g.n, 0);
  for (edge_t e = 0; e < g.m; ++e) ++indegree[g.targets[e]];
  std::vector<node_t> order;
  order.reserve(g.n);
  for (node_t u = 0; u < g.n; ++u)
    if (indegree[u] == 0) order.push_back(u);
  for (std::size_t head = 0; head < order.size(); ++head)
    for (node_t v : g.successors(order[head]))
      if (--indegree[v] == 0) order.push_back(v);
  if (order.size() < g.n)
    throw CycleError(find_cycle(g, [&](node_t u) { return indegree[u] > 0; }));

  // Reverse topological order: every successor's value is final before its
  // predecessors need it. The mex of d values is at most d, so larger values
  // are skipped; mark[x] == stamp means "x seen at the current node", with a
  // fresh stamp per node instead of clearing.
  std::vector<sg_t> sg(g.n, 0);
  edge_t max_degree = 0;
  for (node_t u = 0; u < g.n; ++u) max_degree = std::max(max_degree, g.degree(u));
  std::vector<node_t> mark(max_degree + 1, 0);
  node_t stamp = 0;
  for (std::size_t i = g.n; i-- > 0;) {
    const node_t u = order[i];
    const edge_t d = g.degree(u);
    ++stamp;
    for (node_t v : g.successors(u))
      if (sg[v] <= d) mark[sg[v]] = stamp;
    sg_t x = 0;
    while (mark[x] == stamp) ++x;
    sg[u] = x;
  }
  return sg;
}

}  // namespace grundy
