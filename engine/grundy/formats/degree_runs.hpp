// A layered .gcsr's degree runs (section 6 of docs/FORMAT.md): a function
// of the offsets and the layer starts, so it belongs to the format, which
// derives it when a layered file is written.
#pragma once

#include <span>
#include <vector>

#include "grundy/core/csr_graph.hpp"

namespace grundy {

/// The degree runs of a graph renumbered by layers (StoredLayers): node 0,
/// each layer's first node, and each node whose out-degree differs from the
/// one before it; then n. Sorting each layer by out-degree makes them few
/// (docs/TUNING.md#degree-runs). One serial pass over the offsets
/// (GcsrWriter runs it at commit, once they are written).
std::vector<node_t> degree_run_starts(const CsrView& graph, std::span<const node_t> layer_begin);

}  // namespace grundy
