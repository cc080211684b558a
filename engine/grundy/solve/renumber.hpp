// Renumbering a game so that every topological layer is a contiguous range
// of ids, in layer order (what `convert --layered` and `gen --layered` store).
//
// A mex pass over such ids reads offsets and rows front to back, instead of
// at random: a stream rather than a miss per row (docs/TUNING.md#layer-order).
// Inside a layer, nodes are ordered by out-degree, then by id:
// the mex pass's loop over a node's successors then ends after the same
// count node after node, an exit the branch predictor learns
// (docs/TUNING.md#layer-order). The order depends on the graph only, not on
// the thread count that computed the layers.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// Where the renumbered game goes (sized n+1, m, k, layers+1, n).
struct RenumberedBuffers {
  edge_t* offsets;
  node_t* targets;
  node_t* tokens;
  node_t* layer_begin;
  node_t* original_ids;  ///< new id -> old id
};

/// The old id at position i + 1 of `order` (n nodes); past the last, an id
/// no node has (kMaxNodes keeps node_t's largest free).
inline node_t next_in_order(const node_t* order, std::size_t n, std::size_t i) {
  return i + 1 < n ? order[i + 1] : std::numeric_limits<node_t>::max();
}

/// Node i's row of d old ids into new ids, `out` (which may be `row`): a
/// successor that the order puts right after its node (old id `next`: a
/// chain's) is i + 1 without reading `position` (old id -> new id).
template <class Id>
void name_row(const Id* row, std::size_t d, node_t next, std::size_t i, const node_t* position, node_t* out) {
  for (std::size_t j = 0; j < d; ++j) {
    const auto v = static_cast<node_t>(row[j]);
    out[j] = v == next ? static_cast<node_t>(i + 1) : position[v];
  }
}

/// Asks for the `position` entries that name_row will read for this row,
/// so that their misses overlap.
template <class Id>
void prefetch_named(const Id* row, std::size_t d, node_t next, const node_t* position) {
  for (std::size_t j = 0; j < d; ++j)
    if (static_cast<node_t>(row[j]) != next) __builtin_prefetch(position + row[j]);
}

/// The graph with node order[i] renamed i, rows in their order, into
/// `offsets` (n+1) and `targets` (m); `position` (n) gets old id -> new id.
/// What renumber_by_layers renumbers with (the locality order places its
/// rows as its walks read them, and names them with name_row).
template <class Target>
void permute_graph(const BasicCsr<Target>& graph, const node_t* order, const ParallelConfig& pc, edge_t* offsets,
                   node_t* targets, node_t* position);

/// Sorts each layer of `layers` by (out-degree, id) and writes the
/// renumbered game. Tokens follow their nodes.
void renumber_by_layers(const GameView& game, Layers& layers, const ParallelConfig& pc, const RenumberedBuffers& out);

/// The game in the user's ids again: `original_ids` maps each stored id to
/// the user's (what a layered .gcsr keeps). Rows keep their order.
OwnedGame restore_user_ids(const GameView& game, std::span<const node_t> original_ids);

}  // namespace grundy
