// The floor any SG algorithm must pay: one pass that reads every edge and
// gathers its target's value, nothing more.
//
// A mex pass does at least this (each node needs its successors' values),
// so `grundy bench` measures it in the same run, at the same thread count,
// and reports every engine as a ratio to it. Rows are read in id order, the
// cheapest order there is; the gather is the random part.
#pragma once

#include <cstdint>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/core/sg_values.hpp"

namespace grundy {

/// Sums values[target] over every edge (the sum keeps the loads alive).
std::uint64_t floor_gather(const CsrView& graph, const SgValues& values, const ParallelConfig& pc);

}  // namespace grundy
