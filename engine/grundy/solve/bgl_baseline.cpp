#include "grundy/solve/bgl_baseline.hpp"

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/topological_sort.hpp>
#include <boost/range/iterator_range.hpp>
#include <iterator>
#include <utility>
#include <vector>

#include "grundy/core/cycle.hpp"
#include "grundy/solve/mex.hpp"

namespace grundy {

template <class Target>
SgValues bgl_sg(const BasicCsr<Target>& g, PhaseTimer* timer) {
  using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                   boost::no_property, std::uint32_t, std::uint64_t>;
  if (timer) timer->start("bgl build");
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(g.m);
  for (node_t u = 0; u < g.n; ++u)
    for (const Target v : g.successors(u)) edges.emplace_back(u, static_cast<std::uint32_t>(v));
  const Graph bg(boost::edges_are_sorted, edges.begin(), edges.end(), g.n);
  edges = {};

  if (timer) timer->start("bgl topological sort");
  std::vector<std::uint32_t> order;  // successors before predecessors
  order.reserve(g.n);
  try {
    boost::topological_sort(bg, std::back_inserter(order));
  } catch (const boost::not_a_dag&) {
    throw CycleError(find_cycle(g, [](node_t) { return true; }));
  }

  if (timer) timer->start("bgl mex");
  Array<sg_t> sg(g.n, 0);
  std::vector<node_t> succ;
  StampMex mex(max_degree(g));
  for (const std::uint32_t u : order) {
    succ.clear();
    for (auto e : boost::make_iterator_range(boost::out_edges(u, bg))) succ.push_back(boost::target(e, bg));
    sg[u] = mex(std::span<const node_t>(succ), sg.data());
  }
  if (timer) timer->stop();
  return SgValues(std::move(sg));
}

template SgValues bgl_sg(const CsrView&, PhaseTimer*);
template SgValues bgl_sg(const WideCsrView&, PhaseTimer*);

}  // namespace grundy
