// The reference solver: a depth-first search that takes each node's mex when
// it leaves the stack (post-order, a reverse topological order).
//
// Deliberately plain (one stack, StampMex, no fast paths, no threads) and
// built on a different traversal than the parallel engine's Kahn rounds,
// because every faster engine is checked against it.
#pragma once

#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/core/sg_values.hpp"

namespace grundy {

/// SG value of every node. Throws CycleError if the graph is not a DAG.
/// With a timer, records its one phase, "dfs + mex".
template <class Target>
SgValues serial_sg(const BasicCsr<Target>& graph, PhaseTimer* timer = nullptr);

}  // namespace grundy
