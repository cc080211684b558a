#include "grundy/layering.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <atomic>

#include "grundy/cycle.hpp"

namespace grundy {
namespace {

// In-degrees, counted with atomic increments when edges are split between
// threads.
Array<node_t> in_degrees(const CsrView& g, const ParallelConfig& pc) {
  Array<node_t> indeg(g.n, 0);
  if (!pc.worth_it(g.m)) {
    for (edge_t e = 0; e < g.m; ++e) ++indeg[g.targets[e]];
    return indeg;
  }
  for_range(pc, 0, g.m, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      std::atomic_ref<node_t>(indeg[g.targets[i]]).fetch_add(1, std::memory_order_relaxed);
  });
  return indeg;
}

}  // namespace

Layers compute_layers(const CsrView& g, const ParallelConfig& pc) {
  Array<node_t> indeg = in_degrees(g, pc);
  Layers layers;
  layers.order.resize(g.n);
  node_t* const order = layers.order.data();
  std::size_t tail = 0;
  for (node_t u = 0; u < g.n; ++u)
    if (indeg[u] == 0) order[tail++] = u;

  tbb::enumerable_thread_specific<std::vector<node_t>> next;
  for (std::size_t head = 0; head < tail;) {
    const std::size_t end = tail;  // the current round is order[head, end)
    layers.begin.push_back(static_cast<node_t>(end));
    if (!pc.worth_it(end - head)) {
      // Narrow round: a plain queue step, appending straight to order. A
      // chain of 10^7 nodes is 10^7 of these, so they cost no barrier.
      for (; head < end; ++head) {
        for (node_t v : g.successors(order[head]))
          if (--indeg[v] == 0) order[tail++] = v;
      }
      continue;
    }
    // Wide round: exactly one thread sees each in-degree reach zero and
    // keeps that node in its own buffer; the buffers are then appended.
    for_range(pc, head, end, [&](std::size_t b, std::size_t e) {
      auto& mine = next.local();
      for (std::size_t i = b; i < e; ++i) {
        for (node_t v : g.successors(order[i]))
          if (std::atomic_ref<node_t>(indeg[v]).fetch_sub(1, std::memory_order_relaxed) == 1)
            mine.push_back(v);
      }
    });
    head = end;
    for (auto& buf : next) {
      std::copy(buf.begin(), buf.end(), order + tail);
      tail += buf.size();
      buf.clear();
    }
  }
  if (tail < g.n)
    throw CycleError(find_cycle(g, [&](node_t u) { return indeg[u] > 0; }));
  return layers;
}

}  // namespace grundy
