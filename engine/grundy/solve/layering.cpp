#include "grundy/solve/layering.hpp"
#include "grundy/primitives/parallel.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <optional>

#include "grundy/primitives/blocked_scatter.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/primitives/simd/range_filter.hpp"

namespace grundy {
namespace {

// Starts the loads that visiting order[i + 64] and order[i + 32] will need
// (their offsets, then their rows: prefetch_row) while order[i] is visited,
// so that the misses of a round's independent nodes overlap. `known` bounds
// what is written of order[]. Always inlined: GCC 12 deems a function that
// only prefetches free of effects, and drops the calls that it does not
// inline (no layering loop prefetched before this attribute). The offsets
// non-temporal (read once a round), the rows into L2 at both ends
// (docs/TUNING.md#layering-prefetch).
[[gnu::always_inline]] inline void prefetch_rows(const CsrView& g, const node_t* order, std::size_t i,
                                                 std::size_t known) {
  if (i + 64 < known) __builtin_prefetch(g.offsets + order[i + 64], 0, 0);
  if (i + 32 < known) prefetch_row(g.offsets, g.targets, order[i + 32]);
}

// The in-degree count on two threads: each owns half the counters (split
// at a multiple of 64 nodes, as the counters ask) and reads every edge,
// keeping the targets in its half (keep_in_range). Reading the targets
// twice over costs less than the blocked scatter's writing them out and
// reading them back; each further thread would read every edge once more,
// so past two the scatter stays (docs/TUNING.md#owned-in-degree-count).
constexpr unsigned kOwnedCountThreads = 2;

template <class InDegrees>
void count_owned(const CsrView& g, const ParallelConfig& pc, InDegrees& deg) {
  const std::size_t parts = pc.threads;
  const auto bound = [&](std::size_t part) {
    return part == parts ? g.n : static_cast<node_t>(std::size_t{g.n} * part / parts / 64 * 64);
  };
  for_tasks(pc, parts, [&](std::size_t part) {
    const node_t lo = bound(part), hi = bound(part + 1);
    constexpr std::size_t kPiece = 4096;  // 16 KiB: stays in L1
    node_t kept[kPiece];
    for (std::size_t at = 0; at < g.m; at += kPiece) {
      const std::size_t take = std::min(kPiece, g.m - at);
      deg.add_all(kept, keep_in_range(g.targets + at, take, lo, hi, kept));
    }
  });
}

// A round is "wide" when its frontier holds at least 1/kWideShare of the
// nodes: the next round is then found by scanning every node's counter, a
// small cost beside the round's count-down. Narrow rounds report ready
// nodes as they go (sorted afterwards), so a deep chain never scans N
// counters per node (docs/TUNING.md#wide-rounds).
constexpr std::size_t kWideShare = 512;

// Returns false, with the layers unfinished, when the counters overflowed.
template <class InDegrees>
bool layer_with(const CsrView& g, const ParallelConfig& pc, Layers& layers, InDegrees& deg, LayeringParts* parts) {
  using clock = std::chrono::steady_clock;
  const auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  const auto count_start = parts != nullptr ? clock::now() : clock::time_point{};
  deg.reset(g.n);
  const edge_t* const off = g.offsets;
  const node_t* const targets = g.targets;
  // Made on first use: constructing any oneTBB object costs a judge-sized
  // instance a third of a millisecond (the runtime's first touch).
  std::optional<BlockedScatter> scatter;
  const auto blocked = [&]() -> BlockedScatter& {
    if (!scatter) scatter.emplace(g.n, pc.threads);
    return *scatter;
  };

  const bool big = pc.splits_rounds_of(g.n);
  if (big && pc.worth_it(g.m) && pc.threads <= kOwnedCountThreads) {
    count_owned(g, pc, deg);
  } else if (big && pc.worth_it(g.m)) {
    // Items are edges: counting needs no rows.
    blocked().run(
        g.m, pc.grain, [&](std::size_t k, auto&& sink) { sink(targets[k]); },
        [&](const node_t* batch, std::size_t count) { deg.add_all(batch, count); });
    // Rounds that split between threads will grow the bins again (on
    // wide-l, once); a deep graph's rounds never do, and kept, the bins
    // took a 2-thread solve of a 10^7-node chain from 15 to 19 bytes a
    // node beyond the mapping, past the budget of 16.
    blocked().release();
  } else {
    deg.add_all(targets, g.m);
  }
  if (parts != nullptr) parts->count += seconds_since(count_start);
  if (deg.overflowed()) return false;

  layers.order.resize(g.n);
  layers.begin.assign(1, 0);
  node_t* const order = layers.order.data();
  std::size_t tail = 0;
  std::optional<PerThread<std::vector<node_t>>> lists;
  const bool cached = g.n < kCachedNodes;  // no prefetching, no sorting

  // Appends every ready node to order[] in id order, retiring it: per-block
  // counts, then each block writes its own slice. A 10 MB scan of 1-byte
  // counters per wide round.
  const std::size_t words = (std::size_t{g.n} + 63) / 64;
  const auto collect_ready = [&] {
    const auto scan_start = parts != nullptr ? clock::now() : clock::time_point{};
    const std::size_t blocks = std::max<std::size_t>(1, std::min<std::size_t>(words / 1024, 256));
    std::vector<std::size_t> at(blocks + 1, 0);
    const auto block_words = [&](std::size_t k) { return std::pair{words * k / blocks, words * (k + 1) / blocks}; };
    for_range(pc, 0, blocks, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k) {
        auto [w0, w1] = block_words(k);
        std::size_t c = 0;
        for (std::size_t w = w0; w < w1; ++w) c += static_cast<std::size_t>(std::popcount(deg.ready_mask(w)));
        at[k + 1] = c;
      }
    });
    for (std::size_t k = 0; k < blocks; ++k) at[k + 1] += at[k];
    for_range(pc, 0, blocks, [&](std::size_t b, std::size_t e) {
      for (std::size_t k = b; k < e; ++k) {
        auto [w0, w1] = block_words(k);
        node_t* out = order + tail + at[k];
        for (std::size_t w = w0; w < w1; ++w)
          for (std::uint64_t word = deg.ready_mask(w); word != 0; word &= word - 1) {
            const auto v = static_cast<node_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
            *out++ = v;
            deg.retire(v);
          }
      }
    });
    tail += at[blocks];
    if (parts != nullptr) parts->scans += seconds_since(scan_start);
  };
  collect_ready();  // the sources

  // One thread's step past the cache, in two loops: copy the rows of
  // order[b, e) side by side into a buffer that stays in L2 (the row loads,
  // prefetched a few nodes ahead), then pass the copied targets to
  // `apply(batch, count)` (the counters' misses). Apart, each loop keeps
  // more of its own misses in flight than one loop waiting for both
  // (docs/TUNING.md#staged-rows).
  std::vector<node_t> staged;
  const auto expand_staged = [&](std::size_t b, std::size_t e, auto&& apply) {
    constexpr std::size_t kStage = std::size_t{1} << 15;  // 128 KiB
    staged.resize(kStage);
    node_t* const buf = staged.data();
    std::size_t fill = 0;
    const auto drain = [&] {
      apply(static_cast<const node_t*>(buf), fill);
      fill = 0;
    };
    for (std::size_t i = b; i < e; ++i) {
      prefetch_rows(g, order, i, e);
      const node_t u = order[i];
      for (edge_t k = off[u], end = off[u + 1]; k < end;) {
        const std::size_t take = std::min<std::size_t>(end - k, kStage - fill);
        copy_row(targets + k, take, buf + fill);
        fill += take;
        k += take;
        if (fill == kStage) drain();
      }
    }
    drain();
  };
  // A wide round's step on one thread, on a graph whose rounds never split
  // (see below): count the successors of order[b, e) down, and nothing
  // else. Which of them became ready is read off the counters afterwards by
  // collect_ready(): a branch per edge on "was that the last" waits, at
  // each misprediction, for the counter's miss (docs/TUNING.md#wide-rounds).
  const auto expand_decrement = [&](std::size_t b, std::size_t e) {
    if (cached) {
      for (std::size_t i = b; i < e; ++i) {
        const auto row = g.successors(order[i]);
        deg.decrement_all(row.data(), row.size());
      }
    } else {
      expand_staged(b, e, [&](const node_t* batch, std::size_t count) { deg.decrement_all(batch, count); });
    }
  };
  // A narrow round's step on one thread: appends the successors of
  // order[b, e) that become ready to order[]. On a graph that fits in cache,
  // without a branch on "did it reach zero": every successor is written at
  // the tail, and the tail only moves past the ones that became ready (the
  // write stays inside order[]: a successor not yet ready is a node not yet
  // in it, so tail < n). Beyond the cache that tail chains each decrement to
  // the previous one's miss, and a predicted branch is faster
  // (docs/TUNING.md#narrow-rounds).
  const auto expand_append = [&](std::size_t b, std::size_t e) {
    if (cached) {
      for (std::size_t i = b; i < e; ++i)
        for (const node_t v : g.successors(order[i])) {
          order[tail] = v;
          tail += deg.remove(v);
        }
    } else {
      expand_staged(
          b, e, [&](const node_t* batch, std::size_t count) { tail += deg.remove_all(batch, count, order + tail); });
    }
  };
  // Either, split between threads through the blocked scatter: `apply`
  // gets every edge's target once, in batches (see BlockedScatter::run).
  // `work`: the round's edges, when it is split for them (parallel.hpp).
  const auto expand_parallel = [&](std::size_t b, std::size_t e, std::size_t work, auto&& apply) {
    blocked().run(
        e - b, pc.grain_for(e - b, work),
        [&](std::size_t i, auto&& sink) {
          prefetch_rows(g, order, b + i, e);
          const node_t u = order[b + i];
          for (edge_t k = off[u]; k < off[u + 1]; ++k) sink(targets[k]);
        },
        apply);
  };

  for (std::size_t head = 0; head < tail;) {
    const std::size_t end = tail;  // the current round is order[head, end)
    layers.begin.push_back(static_cast<node_t>(end));
    const std::size_t width = end - head;
    // A narrow round's edges, where they decide whether it is split (as for
    // the mex pass's layers: level_solver.cpp); its expansion then finds the
    // offsets in cache.
    const std::size_t work = big && pc.weighs(width) ? g.edges_of({order + head, width}) : 0;
    const bool parallel = big && pc.worth_it(width, work);
    if (width * kWideShare >= g.n && g.n >= 64 * kWideShare) {
      // Wide: count down, then scan the counters for the next round (in id
      // order, as the scan goes). On a graph whose rounds may split, one
      // thread counts down through the blocked scatter too: its bins turn
      // the decrements' misses into streams. The in-degree count stays plain
      // (its hubs' counters stay in cache; docs/TUNING.md#scatter-one-thread).
      if (big) {  // split between threads or not
        expand_parallel(head, end, work,
                        [&](const node_t* batch, std::size_t count) { deg.decrement_all(batch, count); });
      } else {
        expand_decrement(head, end);
      }
      head = end;
      collect_ready();
      continue;
    }
    if (!parallel) {
      // Narrow: a plain queue step appending straight to order. A chain of
      // 10^7 nodes is 10^7 of these, so they cost no barrier and no scan.
      expand_append(head, end);
      head = end;
    } else {
      if (!lists) lists.emplace();
      expand_parallel(head, end, work, [&](const node_t* batch, std::size_t count) {
        std::vector<node_t>& list = lists->local();
        const std::size_t at = list.size();
        list.resize(at + count);  // room for all; keeps the ready ones
        list.resize(at + deg.remove_all(batch, count, list.data() + at));
      });
      head = end;
      for (auto& list : *lists) {
        std::copy(list.begin(), list.end(), order + tail);
        tail += list.size();
        list.clear();
      }
    }
    for (std::size_t i = end; i < tail; ++i) deg.retire(order[i]);
    // The next round in id order, for locality; a graph that fits in cache
    // gains nothing from it (a judge-sized instance spent a third of its
    // layering time in std::sort; renumbering sorts layers itself).
    if (!cached) std::sort(order + end, order + tail);
  }
  if (tail < g.n) {
    // The nodes never reached lie on a cycle or downstream of one.
    std::vector<bool> placed(g.n, false);
    for (std::size_t i = 0; i < tail; ++i) placed[order[i]] = true;
    throw CycleError(find_cycle(g, [&](node_t u) { return !placed[u]; }));
  }
  return true;
}

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

void compute_layers(const CsrView& g, const ParallelConfig& pc, Layers& layers, InDegreeWidth width,
                    LayeringParts* parts) {
  // Untimed runs (batch instances by the thousand) read no clock.
  const auto start = parts != nullptr ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  LayeringParts now;  // this call's; the rounds are what the rest leaves
  LayeringParts* const mine = parts != nullptr ? &now : nullptr;
  if (width == InDegreeWidth::automatic) width = g.n >= kCachedNodes ? InDegreeWidth::narrow : InDegreeWidth::wide;
  if (width != InDegreeWidth::narrow || !layer_with(g, pc, layers, layers.narrow_indegree, mine))
    layer_with(g, pc, layers, layers.wide_indegree, mine);  // wide asked for, or a count past 2^24
  if (parts != nullptr) {
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    parts->count += now.count;
    parts->scans += now.scans;
    parts->rounds += std::max(0.0, total - now.count - now.scans);
  }
}

}  // namespace grundy
