#include "grundy/layering.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "grundy/blocked_scatter.hpp"
#include "grundy/cycle.hpp"

namespace grundy {
namespace {

// Starts the loads that visiting order[i + 16] and order[i + 8] will need
// (their offsets, then their rows) while order[i] is visited, so that the
// misses of a round's independent nodes overlap. `known` bounds what is
// written of order[].
inline void prefetch_rows(const CsrView& g, const node_t* order, std::size_t i, std::size_t known) {
  if (i + 16 < known) __builtin_prefetch(g.offsets + order[i + 16]);
  if (i + 8 < known) __builtin_prefetch(g.targets + g.offsets[order[i + 8]]);
}

// A round is "wide" when its frontier holds at least 1/kWideShare of the
// nodes: its successors then go into a bitmap, and the next round reads the
// bitmap front to back. Narrow rounds use a list (sorted) instead, so a deep
// chain never scans N bits per node.
constexpr std::size_t kWideShare = 64;



}  // namespace

// Kahn's algorithm by rounds, keeping every round in ascending id order:
// both this pass and the mex pass then read offsets and rows in address
// order, which on random ids measured several times cheaper than visiting
// the same rows in queue order. It also makes the layers' contents and
// order independent of the thread count. Rounds wide enough for threads
// scatter their decrements through BlockedScatter (no atomics).
Layers compute_layers(const CsrView& g, const ParallelConfig& pc) {
  Layers layers;
  compute_layers(g, pc, layers);
  return layers;
}

void compute_layers(const CsrView& g, const ParallelConfig& pc, Layers& layers) {
  Array<node_t>& indeg = layers.indegree;
  indeg.assign(g.n, 0);
  node_t* const deg = indeg.data();
  const edge_t* const off = g.offsets;
  const node_t* const targets = g.targets;
  // Made on first use: constructing any oneTBB object costs a judge-sized
  // instance a third of a millisecond (the runtime's first touch).
  std::optional<BlockedScatter> scatter;
  const double mean_degree = g.n ? static_cast<double>(g.m) / g.n : 0.0;
  const auto blocked = [&]() -> BlockedScatter& {
    if (!scatter) scatter.emplace(g.n);
    return *scatter;
  };

  const bool big = g.n >= pc.min_parallel_graph;
  if (big && pc.worth_it(g.m)) {
    blocked().run(
        pc, g.n, mean_degree,
        [&](std::size_t u, auto&& sink) {
          for (edge_t k = off[u]; k < off[u + 1]; ++k) sink(targets[k]);
        },
        [&](node_t v) { ++deg[v]; });
  } else {
    for (edge_t e = 0; e < g.m; ++e) ++deg[targets[e]];
  }

  layers.order.resize(g.n);
  layers.begin.assign(1, 0);
  node_t* const order = layers.order.data();
  std::size_t tail = 0;
  for (node_t u = 0; u < g.n; ++u)
    if (deg[u] == 0) order[tail++] = u;  // ascending already

  const std::size_t words = (std::size_t{g.n} + 63) / 64;
  Array<std::uint64_t>& bitmap = layers.bitmap;  // the next round, when produced wide
  std::optional<tbb::enumerable_thread_specific<std::vector<node_t>>> lists;

  const bool cached = g.n < kCachedNodes;  // no prefetching, no sorting
  // Decrements the in-degrees of the successors of order[b, e) on this
  // thread; `ready(v)` gets each that reaches zero.
  const auto expand = [&](std::size_t b, std::size_t e, auto&& ready) {
    for (std::size_t i = b; i < e; ++i) {
      if (!cached) prefetch_rows(g, order, i, e);
      const node_t u = order[i];
      for (edge_t k = off[u], end = off[u + 1]; k < end; ++k)
        if (--deg[targets[k]] == 0) ready(targets[k]);
    }
  };
  // The narrow step: expand() appending to order[], but without a branch on
  // "did it reach zero" (a coin flip on random DAGs): every successor is
  // written at the tail, and the tail only moves past the ones that became
  // ready. The write stays inside order[]: a successor not yet ready is a
  // node not yet in it, so tail < n. (The same trick on the wide rounds'
  // bitmap measured 1.7x slower: a read-modify-write per edge, not per
  // ready node.)
  const auto expand_append = [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      if (!cached) prefetch_rows(g, order, i, e);
      const node_t u = order[i];
      for (edge_t k = off[u], end = off[u + 1]; k < end; ++k) {
        const node_t v = targets[k];
        order[tail] = v;
        tail += --deg[v] == 0;
      }
    }
  };
  // The same, split between threads through the blocked scatter.
  const auto expand_parallel = [&](std::size_t b, std::size_t e, auto&& ready) {
    blocked().run(
        pc, e - b, mean_degree,
        [&](std::size_t i, auto&& sink) {
          prefetch_rows(g, order, b + i, e);
          const node_t u = order[b + i];
          for (edge_t k = off[u]; k < off[u + 1]; ++k) sink(targets[k]);
        },
        [&](node_t v) {
          if (--deg[v] == 0) ready(v);
        });
  };

  for (std::size_t head = 0; head < tail;) {
    const std::size_t end = tail;  // the current round is order[head, end)
    layers.begin.push_back(static_cast<node_t>(end));
    const std::size_t width = end - head;
    const bool parallel = big && pc.worth_it(width);
    if (width * kWideShare >= g.n && g.n >= 64 * kWideShare) {
      // Wide: successors that become ready set their bit (a bin's range is
      // whole words, so no two tasks share one); the next round is then
      // read off the bitmap in id order.
      if (bitmap.size() != words) bitmap.assign(words, 0);  // all zero between rounds
      std::uint64_t* const bits = bitmap.data();
      const auto mark = [bits](node_t v) { bits[v / 64] |= std::uint64_t{1} << (v % 64); };
      if (parallel) {
        expand_parallel(head, end, mark);
      } else {
        expand(head, end, mark);
      }
      head = end;
      // Collect set bits into order[] in id order (per-block counts, then
      // each block writes its own slice) and clear the bitmap as we go.
      const std::size_t blocks = std::max<std::size_t>(1, std::min<std::size_t>(words / 1024, 256));
      std::vector<std::size_t> at(blocks + 1, 0);
      const auto block_words = [&](std::size_t k) { return std::pair{words * k / blocks, words * (k + 1) / blocks}; };
      for_range(pc, 0, blocks, [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) {
          auto [w0, w1] = block_words(k);
          std::size_t c = 0;
          for (std::size_t w = w0; w < w1; ++w) c += static_cast<std::size_t>(std::popcount(bitmap[w]));
          at[k + 1] = c;
        }
      });
      for (std::size_t k = 0; k < blocks; ++k) at[k + 1] += at[k];
      for_range(pc, 0, blocks, [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) {
          auto [w0, w1] = block_words(k);
          node_t* out = order + tail + at[k];
          for (std::size_t w = w0; w < w1; ++w) {
            for (std::uint64_t word = bitmap[w]; word != 0; word &= word - 1)
              *out++ = static_cast<node_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
            bitmap[w] = 0;
          }
        }
      });
      tail += at[blocks];
      continue;
    }
    if (!parallel) {
      // Narrow: a plain queue step appending straight to order. A chain of
      // 10^7 nodes is 10^7 of these, so they cost no barrier and no scan.
      expand_append(head, end);
      head = end;
    } else {
      if (!lists) lists.emplace();
      expand_parallel(head, end, [&](node_t v) { lists->local().push_back(v); });
      head = end;
      for (auto& list : *lists) {
        std::copy(list.begin(), list.end(), order + tail);
        tail += list.size();
        list.clear();
      }
    }
    // The next round in id order, for locality; a graph that fits in cache
    // gains nothing from it (a judge-sized instance spent a third of its
    // layering time in std::sort; renumbering sorts layers itself).
    if (!cached) std::sort(order + end, order + tail);
  }
  if (tail < g.n)
    throw CycleError(find_cycle(g, [&](node_t u) { return deg[u] > 0; }));
}

}  // namespace grundy
