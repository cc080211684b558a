// The parallel engine: SG values layer by layer.
//
// Layers (Kahn rounds) are taken from the deepest to the first; each wide
// layer is one parallel loop (oneTBB's parallel_for) of BitsetMex over its nodes, and each run of
// narrow layers is one plain loop, so a deep chain pays no barrier per node.
#pragma once

#include <span>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/solve/depth_first.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// Layers as the mex pass reads them: layer l is order[begin[l], begin[l+1]),
/// or ids [begin[l], begin[l+1]) themselves when order is null (a graph
/// renumbered in layer order, where the pass reads memory front to back;
/// then degree_runs, when known, spare it the offsets: StoredLayers).
struct LayerView {
  const node_t* order = nullptr;
  std::span<const node_t> begin;
  std::span<const node_t> degree_runs;

  std::size_t count() const { return begin.size() - 1; }
  std::size_t width(std::size_t l) const { return begin[l + 1] - begin[l]; }
};

/// Fills `sg` (sized n) given the layers; with `log`, records each step
/// into log->layers.
template <class Target>
void level_mex(const BasicCsr<Target>& graph, const LayerView& layers, const SolveConfig& config, SgValues& sg,
               PhaseTimer* log = nullptr);

/// SG values: layering (skipped when `stored` gives a renumbered graph's
/// layers), then level_mex. Records "layering" and "mex" phases.
/// Throws CycleError if the graph is not a DAG.
template <class Target>
SgValues level_sg(const BasicCsr<Target>& graph, const SolveConfig& config, PhaseTimer* timer = nullptr,
                  const StoredLayers& stored = {});

/// The layers, counters and stack of a level solve, kept by a caller that
/// solves graph after graph (a batch workspace), so that each solve
/// allocates nothing once they have grown.
struct LevelScratch {
  Layers layers;
  InDegreeScratch counters;
  DepthFirstScratch depth_first;
  /// Whether level_sg is to set `depth`, the graph's number of layers: the
  /// layered paths always do, the depth-first path only when asked.
  bool wants_depth = false;
  std::size_t depth = 0;
};

/// The same into `sg`, with `scratch` reused. On one or two threads a
/// graph below a few 10^5 nodes takes the depth-first path instead
/// (takes_depth_first), recorded as the phase "dfs + mex".
template <class Target>
void level_sg(const BasicCsr<Target>& graph, const SolveConfig& config, LevelScratch& scratch, SgValues& sg,
              PhaseTimer* timer = nullptr, const StoredLayers& stored = {});

}  // namespace grundy
