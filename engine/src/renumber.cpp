#include "grundy/renumber.hpp"

#include <tbb/parallel_sort.h>

#include <algorithm>

namespace grundy {

void renumber_by_layers(const GameView& game, Layers& layers, const ParallelConfig& pc,
                        const RenumberedBuffers& out) {
  const CsrView& g = game.graph;
  node_t* order = layers.order.data();
  for (std::size_t l = 0; l < layers.count(); ++l) {
    node_t* b = order + layers.begin[l];
    node_t* e = order + layers.begin[l + 1];
    if (pc.worth_it(static_cast<std::size_t>(e - b))) {
      tbb::parallel_sort(b, e);
    } else {
      std::sort(b, e);
    }
  }
  // new id i is old node order[i]; position[] maps old ids to new.
  Array<node_t> position(g.n);
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) position[order[i]] = static_cast<node_t>(i);
  });
  out.offsets[0] = 0;
  for (std::size_t i = 0; i < g.n; ++i) out.offsets[i + 1] = out.offsets[i] + g.degree(order[i]);
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      node_t* row = out.targets + out.offsets[i];
      for (node_t v : g.successors(order[i])) *row++ = position[v];
    }
  });
  for (std::size_t t = 0; t < game.tokens.size(); ++t) out.tokens[t] = position[game.tokens[t]];
  std::copy(layers.begin.begin(), layers.begin.end(), out.layer_begin);
  std::copy(order, order + g.n, out.original_ids);
}

}  // namespace grundy
