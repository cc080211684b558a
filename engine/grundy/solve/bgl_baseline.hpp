// The Boost.Graph baseline: an independent path to the same SG values.
//
// Boost's compressed_sparse_row_graph (32-bit vertices), boost::topological_sort
// (which yields a reverse topological order, the order SG values need) and a
// serial StampMex. It shares no traversal code with grundy's engines, which
// is what makes it a useful check (`--verify`) and a fair speed reference.
#pragma once

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/core/sg_values.hpp"

namespace grundy {

/// Throws CycleError if the graph is not a DAG. Records "bgl build",
/// "bgl topological sort" and "bgl mex" phases.
template <class Target>
SgValues bgl_sg(const BasicCsr<Target>& graph, PhaseTimer* timer = nullptr);

}  // namespace grundy
