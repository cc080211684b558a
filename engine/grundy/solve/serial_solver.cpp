#include "grundy/solve/serial_solver.hpp"

#include "grundy/core/cycle.hpp"
#include "grundy/solve/mex.hpp"

namespace grundy {
namespace {

// sg[] doubles as the search state until a node's value is final.
constexpr sg_t kUnvisited = ~sg_t{0};
constexpr sg_t kOnPath = kUnvisited - 1;

}  // namespace

// A depth-first search with an explicit stack: a node's value is computed when
// it leaves the stack, after all its successors left it (post-order is a
// reverse topological order). One pass, no in-degree array and no queue, and
// a successor met on the current path is a cycle, found on the spot.
template <class Target>
SgValues serial_sg(const BasicCsr<Target>& g, PhaseTimer* timer) {
  if (timer) timer->start("dfs + mex");
  Array<sg_t> sg(g.n, kUnvisited);
  StampMex mex(max_degree(g));
  struct Frame {
    node_t node;
    edge_t next;  // the next edge of `node` to follow
  };
  Array<Frame> path;
  for (node_t root = 0; root < g.n; ++root) {
    if (sg[root] != kUnvisited) continue;
    sg[root] = kOnPath;
    path.push_back({root, g.offsets[root]});
    while (!path.empty()) {
      Frame& f = path.back();
      const edge_t end = g.offsets[f.node + 1];
      while (f.next < end && sg[g.targets[f.next]] < kOnPath) ++f.next;
      if (f.next < end) {
        const auto v = static_cast<node_t>(g.targets[f.next++]);
        if (sg[v] == kOnPath) throw CycleError(cycle_on_path(path, v, [](const Frame& p) { return p.node; }));
        sg[v] = kOnPath;
        path.push_back({v, g.offsets[v]});
        continue;
      }
      sg[f.node] = mex(g.successors(f.node), sg.data());
      path.pop_back();
    }
  }
  if (timer) timer->stop();
  return SgValues(std::move(sg));
}

template SgValues serial_sg(const CsrView&, PhaseTimer*);
template SgValues serial_sg(const WideCsrView&, PhaseTimer*);

}  // namespace grundy
