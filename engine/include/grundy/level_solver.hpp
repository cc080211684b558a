// The parallel engine: SG values layer by layer.
//
// Layers (Kahn rounds) are taken from the deepest to the first; each wide
// layer is one tbb::parallel_for of BitsetMex over its nodes, and each run of
// narrow layers is one plain loop, so a deep chain pays no barrier per node.
#pragma once

#include "grundy/csr_graph.hpp"
#include "grundy/layering.hpp"
#include "grundy/parallel.hpp"
#include "grundy/phase_timer.hpp"
#include "grundy/sg_values.hpp"

namespace grundy {

/// Fills `sg` (sized n) from precomputed layers.
void level_mex(const CsrView& graph, const Layers& layers, const ParallelConfig& pc, SgValues& sg);

/// Layers, then level_mex. Records "layering" and "mex" phases.
/// Throws CycleError if the graph is not a DAG.
SgValues level_sg(const CsrView& graph, const ParallelConfig& pc, PhaseTimer* timer = nullptr);

}  // namespace grundy
