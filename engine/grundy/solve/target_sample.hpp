// A sorted sample of a graph's edge targets: what the engine reads to judge
// how a graph's edges fall (where two threads cut the in-degree counters,
// whether hubs draw them) without a pass over every edge.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "grundy/core/csr_graph.hpp"

namespace grundy {

/// Calls f(target) for up to `count` targets (all of them where the graph
/// has fewer edges), evenly spaced in the edge array; returns how many.
template <class Target, class F>
std::size_t for_target_sample(const BasicCsr<Target>& g, std::size_t count, F&& f) {
  const auto taken = static_cast<std::size_t>(std::min<edge_t>(count, g.m));
  for (std::size_t k = 0; k < taken; ++k) f(static_cast<node_t>(g.targets[g.m / taken * k]));
  return taken;
}

/// The same targets, sorted.
template <class Target>
std::vector<node_t> sorted_target_sample(const BasicCsr<Target>& g, std::size_t count) {
  std::vector<node_t> sample;
  sample.reserve(static_cast<std::size_t>(std::min<edge_t>(count, g.m)));
  for_target_sample(g, count, [&](node_t v) { sample.push_back(v); });
  std::sort(sample.begin(), sample.end());
  return sample;
}

}  // namespace grundy
