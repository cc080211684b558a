// The reference solver: Kahn's topological order, then mex in reverse order.
//
// Deliberately plain (one queue, one mark array with generation stamps, no
// fast paths), because every faster engine is checked against it.
#pragma once

#include <cstdint>
#include <vector>

#include "grundy/csr_graph.hpp"

namespace grundy {

using sg_t = std::uint32_t;  ///< a Sprague-Grundy value

/// SG value of every node. Throws CycleError if the graph is not a DAG.
std::vector<sg_t> serial_sg(const CsrView& graph);

}  // namespace grundy
