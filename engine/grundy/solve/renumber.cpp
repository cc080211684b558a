#include "grundy/solve/renumber.hpp"

#include <algorithm>
#include <cstdint>

#include "grundy/core/huge_array.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

template <class Target>
void permute_graph(const BasicCsr<Target>& g, const node_t* order, const ParallelConfig& pc, edge_t* offsets,
                   node_t* targets, node_t* position) {
  // The degrees in new order (gathered in parallel), then their sum in one pass.
  // Old ids are at random: their offsets and rows are asked for a few nodes
  // ahead, so that the misses overlap (as the mex pass does).
  constexpr std::size_t far = Tuning::mex_prefetch_offsets, near = Tuning::mex_prefetch_row;
  offsets[0] = 0;
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      if (i + far < e) {
        __builtin_prefetch(g.offsets + order[i + far]);
        __builtin_prefetch(position + order[i + far], 1);
      }
      position[order[i]] = static_cast<node_t>(i);
      offsets[i + 1] = g.degree(order[i]);
    }
  });
  for (std::size_t i = 0; i < g.n; ++i) offsets[i + 1] += offsets[i];
  // Rows named as name_row does (a chain's successor without a read of `position`).
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      if (i + far < e) __builtin_prefetch(g.offsets + order[i + far]);
      if (i + near < e) prefetch_row(g.offsets, g.targets, order[i + near]);
      if (i + near / 2 < e) {
        const node_t ahead = order[i + near / 2];
        prefetch_named(g.targets + g.offsets[ahead], g.degree(ahead), next_in_order(order, g.n, i + near / 2),
                       position);
      }
      const node_t u = order[i];
      name_row(g.targets + g.offsets[u], g.degree(u), next_in_order(order, g.n, i), i, position,
               targets + offsets[i]);
    }
  });
}

template void permute_graph(const CsrView&, const node_t*, const ParallelConfig&, edge_t*, node_t*, node_t*);
template void permute_graph(const WideCsrView&, const node_t*, const ParallelConfig&, edge_t*, node_t*, node_t*);

void renumber_by_layers(const GameView& game, Layers& layers, const ParallelConfig& pc, const RenumberedBuffers& out) {
  const CsrView& g = game.graph;
  node_t* order = layers.order.data();
  // Each layer by (out-degree, id): keys of degree above and id below, so
  // that one sort gives both, whatever order layering left.
  std::size_t widest = 0;
  for (std::size_t l = 0; l < layers.count(); ++l) widest = std::max<std::size_t>(widest, layers.width(l));
  Array<std::uint64_t> keys(widest);
  for (std::size_t l = 0; l < layers.count(); ++l) {
    node_t* const b = order + layers.begin[l];
    const std::size_t width = layers.width(l);
    for_range(pc, 0, width, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) {
        const std::uint64_t d = std::min<std::uint64_t>(g.degree(b[i]), 0xFFFFFFFFu);
        keys[i] = d << 32 | b[i];
      }
    });
    sort_range(pc, keys.data(), keys.data() + width);
    for_range(pc, 0, width, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) b[i] = static_cast<node_t>(keys[i]);
    });
  }
  Array<node_t> position(g.n);
  permute_graph(g, order, pc, out.offsets, out.targets, position.data());
  for (std::size_t t = 0; t < game.tokens.size(); ++t) out.tokens[t] = position[game.tokens[t]];
  std::copy(layers.begin.begin(), layers.begin.end(), out.layer_begin);
  std::copy(order, order + g.n, out.original_ids);
}

OwnedGame restore_user_ids(const GameView& game, std::span<const node_t> original_ids) {
  const CsrView& g = game.graph;
  OwnedGame out;
  out.n = g.n;
  out.offsets = Array<edge_t>(std::size_t{g.n} + 1, 0);
  for (node_t u = 0; u < g.n; ++u) out.offsets[original_ids[u] + std::size_t{1}] = g.offsets[u + 1] - g.offsets[u];
  for (node_t u = 0; u < g.n; ++u) out.offsets[u + std::size_t{1}] += out.offsets[u];
  out.targets = UnzeroedArray<node_t>(g.m);
  for (node_t u = 0; u < g.n; ++u) {
    edge_t at = out.offsets[original_ids[u]];
    for (const node_t v : g.successors(u)) out.targets[at++] = original_ids[v];
  }
  out.tokens = Array<node_t>(game.tokens.size());
  for (std::size_t t = 0; t < game.tokens.size(); ++t) out.tokens[t] = original_ids[game.tokens[t]];
  return out;
}

}  // namespace grundy
