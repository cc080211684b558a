// Layering's in-degree counters: the 1-byte ones with their 16-bit carry
// against the plain 4-byte ones, on their own and inside compute_layers.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <limits>
#include <memory>
#include <random>
#include <type_traits>

#include "presets.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/primitives/blocked_scatter.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/indegree_counters.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/primitives/simd/range_filter.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::make_game;

// Counting `count` predecessors of node 5 up and down again: remove() says
// "last" exactly once, at the end, and ready_mask() sees node 5 only then.
template <class Counters>
void count_up_and_down(Counters& c, std::uint32_t count, bool scan) {
  c.reset(200);
  for (std::uint32_t i = 0; i < count; ++i) c.add(5);
  ASSERT_FALSE(c.overflowed());
  EXPECT_EQ(c.ready_mask(0) >> 5 & 1, 0u);
  for (std::uint32_t i = 1; i < count; ++i) {
    if (scan) {
      c.decrement(5);
      // Zero low bytes on the way down (multiples of 256) are not zero counts.
      ASSERT_EQ(c.ready_mask(0) >> 5 & 1, 0u) << "after " << i << " of " << count;
    } else {
      ASSERT_FALSE(c.remove(5)) << "after " << i << " of " << count;
    }
  }
  if (scan) {
    c.decrement(5);
    EXPECT_EQ(c.ready_mask(0) >> 5 & 1, 1u);
  } else {
    EXPECT_TRUE(c.remove(5));
  }
  c.retire(5);
  EXPECT_EQ(c.ready_mask(0) >> 5 & 1, 0u) << "a retired node is never ready again";
}

TEST(InDegreeCounters, NarrowCountsCarryAndBorrowAcrossTheLowByte) {
  for (std::uint32_t count : {1u, 2u, 255u, 256u, 257u, 511u, 512u, 70000u}) {
    SCOPED_TRACE(count);
    NarrowInDegrees narrow;
    WideInDegrees wide;
    for (bool scan : {false, true}) {
      count_up_and_down(narrow, count, scan);
      count_up_and_down(wide, count, scan);
    }
  }
}

// The bulk forms (what layering's loops call) against the same counts.
template <class Counters>
void bulk_count_up_and_down(Counters& c, std::uint32_t count) {
  c.reset(200);
  std::vector<node_t> targets(count, 5);
  targets.push_back(9);
  c.add_all(targets.data(), targets.size());
  ASSERT_FALSE(c.overflowed());
  c.decrement_all(targets.data(), count - 1);  // node 5 down to 1, node 9 untouched
  EXPECT_EQ(c.ready_mask(0) >> 5 & 1, 0u);
  EXPECT_EQ(c.ready_mask(0) >> 9 & 1, 0u);
  c.decrement_all(targets.data() + count - 1, 2);  // the last of node 5, and node 9
  EXPECT_EQ(c.ready_mask(0) >> 5 & 1, 1u);
  EXPECT_EQ(c.ready_mask(0) >> 9 & 1, 1u);
  // remove_all reports each node once, when its last predecessor goes.
  c.reset(200);
  c.add_all(targets.data(), targets.size());
  std::vector<node_t> ready(targets.size());
  EXPECT_EQ(c.remove_all(targets.data(), count - 1, ready.data()), 0u);
  ASSERT_EQ(c.remove_all(targets.data() + count - 1, 2, ready.data()), 2u);
  EXPECT_EQ(ready[0], 5u);
  EXPECT_EQ(ready[1], 9u);
}

TEST(InDegreeCounters, BulkFormsCountAsTheSingleOnes) {
  for (std::uint32_t count : {1u, 255u, 256u, 257u, 70000u}) {
    SCOPED_TRACE(count);
    NarrowInDegrees narrow;
    WideInDegrees wide;
    bulk_count_up_and_down(narrow, count);
    bulk_count_up_and_down(wide, count);
  }
}

// remove_all_to_zeros writes every node whose low byte reached zero: a
// hub's on the way down too, which take_if_ready turns away, as it turns
// away a node taken already. Node 5 gets `count` predecessors, node 9 one;
// first counted down in two calls (a hub to 256 left, its low byte zero
// then; any other node to one left), then in one call, where a hub shows up
// twice.
template <class Counters>
void zeros_then_take(Counters& c, std::uint32_t count) {
  std::vector<node_t> targets(count, 5);
  targets.push_back(9);
  std::vector<node_t> zeros(targets.size());
  c.reset(200);
  c.add_all(targets.data(), targets.size());
  const std::uint32_t first = count > 256 ? count - 256 : count - 1;
  std::size_t k = c.remove_all_to_zeros(targets.data(), first, zeros.data());
  if (std::is_same_v<Counters, NarrowInDegrees> && count > 256) {
    ASSERT_GT(k, 0u) << "the hub's low byte is zero";
  }
  for (std::size_t i = 0; i < k; ++i) {
    EXPECT_EQ(zeros[i], 5u);
    EXPECT_FALSE(c.take_if_ready(zeros[i])) << "predecessors are left";
  }
  k = c.remove_all_to_zeros(targets.data() + first, targets.size() - first, zeros.data());
  ASSERT_GE(k, 2u);
  EXPECT_EQ(zeros[k - 2], 5u);
  EXPECT_EQ(zeros[k - 1], 9u);
  EXPECT_TRUE(c.take_if_ready(5));
  EXPECT_FALSE(c.take_if_ready(5)) << "taken already";
  EXPECT_TRUE(c.take_if_ready(9));
  EXPECT_EQ(c.ready_mask(0) >> 5 & 1, 0u) << "taken is retired";

  c.reset(200);
  c.add_all(targets.data(), targets.size());
  k = c.remove_all_to_zeros(targets.data(), targets.size(), zeros.data());
  std::size_t taken[2] = {0, 0};
  for (std::size_t i = 0; i < k; ++i) {
    ASSERT_TRUE(zeros[i] == 5 || zeros[i] == 9) << zeros[i];
    if (c.take_if_ready(zeros[i])) ++taken[zeros[i] == 9];
  }
  EXPECT_EQ(taken[0], 1u);
  EXPECT_EQ(taken[1], 1u);
}

TEST(InDegreeCounters, ZerosAreTakenOnceWhenReady) {
  for (std::uint32_t count : {1u, 2u, 255u, 256u, 257u, 512u, 513u, 70000u}) {
    SCOPED_TRACE(count);
    NarrowInDegrees narrow;
    WideInDegrees wide;
    zeros_then_take(narrow, count);
    zeros_then_take(wide, count);
  }
}

TEST(InDegreeCounters, ReadyMaskCoversSourcesAndPadding) {
  NarrowInDegrees narrow;
  narrow.reset(70);  // words 0 and 1; nodes 70..127 are padding
  narrow.add(3);
  narrow.add(64);
  EXPECT_EQ(narrow.ready_mask(0), ~(std::uint64_t{1} << 3));
  EXPECT_EQ(narrow.ready_mask(1), ((std::uint64_t{1} << 6) - 1) & ~std::uint64_t{1});
  WideInDegrees wide;
  wide.reset(70);
  wide.add(3);
  wide.add(64);
  EXPECT_EQ(wide.ready_mask(0), narrow.ready_mask(0));
  EXPECT_EQ(wide.ready_mask(1), narrow.ready_mask(1));
}

TEST(InDegreeCounters, CarryOverflowIsReported) {
  // An 8-bit carry makes the narrow range 2^16: one more predecessor overflows.
  BasicNarrowInDegrees<std::uint8_t> c;
  c.reset(10);
  for (std::uint32_t i = 0; i < 65535; ++i) c.add(7);
  EXPECT_FALSE(c.overflowed());
  c.add(7);
  EXPECT_TRUE(c.overflowed());
  c.reset(10);
  EXPECT_FALSE(c.overflowed());
}

// Two threads' halves of the counts, added up (layering's count_halves),
// count down exactly as the counts of all the edges in one set: each node is
// reported when its last predecessor goes, hubs past 255 and 65535 too, in
// whole words, in the partial last word, and over two disjoint word ranges.
template <class Counters>
void absorbed_counts_agree(node_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<node_t> targets;
  for (int i = 0; i < 30000; ++i) targets.push_back(static_cast<node_t>(rng() % n));
  for (node_t hub : {node_t{0}, n / 2, n - 1}) targets.insert(targets.end(), hub == 0 ? 70000 : 200 + rng() % 200, hub);
  std::shuffle(targets.begin(), targets.end(), rng);
  Counters all, first, second;
  all.reset(n);
  first.reset(n);
  second.reset(n);
  all.add_all(targets.data(), targets.size());
  const std::size_t half = targets.size() / 2;
  first.add_all(targets.data(), half);
  second.add_all(targets.data() + half, targets.size() - half);
  const std::size_t words = (std::size_t{n} + 63) / 64;
  first.absorb(second, words / 2, words, n);
  first.absorb(second, 0, words / 2, n);
  ASSERT_FALSE(first.overflowed());
  for (std::size_t w = 0; w < words; ++w) ASSERT_EQ(first.ready_mask(w), all.ready_mask(w)) << "word " << w;
  std::vector<node_t> want(targets.size()), got(targets.size());
  want.resize(all.remove_all(targets.data(), targets.size(), want.data()));
  got.resize(first.remove_all(targets.data(), targets.size(), got.data()));
  EXPECT_EQ(got, want);
}

TEST(InDegreeCounters, AbsorbedHalvesCountAsOneSet) {
  for (node_t n : {node_t{64}, node_t{1000}, node_t{5000}}) {
    SCOPED_TRACE(n);
    absorbed_counts_agree<NarrowInDegrees>(n, n);
    absorbed_counts_agree<WideInDegrees>(n, n);
  }
  // Each half within the 8-bit carry's range (2^16), their sum past it.
  BasicNarrowInDegrees<std::uint8_t> a, b;
  a.reset(10);
  b.reset(10);
  for (int i = 0; i < 40000; ++i) a.add(7);
  for (int i = 0; i < 30000; ++i) b.add(7);
  ASSERT_FALSE(a.overflowed() || b.overflowed());
  a.absorb(b, 0, 1, 10);
  EXPECT_TRUE(a.overflowed());
}

// Graphs with hubs: nodes of in-degree past 255 and past 65535 (the carry
// wrapping the low byte many times), among ordinary random edges.
OwnedGame hub_graph(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const node_t n = 3000;
  std::vector<std::pair<node_t, node_t>> edges;
  for (int i = 0; i < 20000; ++i) {
    node_t a = 1 + static_cast<node_t>(rng() % n), b = 1 + static_cast<node_t>(rng() % n);
    if (a == b) continue;
    edges.emplace_back(std::min(a, b), std::max(a, b));
  }
  for (node_t hub : {n, n - 7, 1500u}) {
    const std::uint64_t fan_in = hub == n ? 70000 : 300 + rng() % 300;
    for (std::uint64_t i = 0; i < fan_in; ++i) edges.emplace_back(1 + static_cast<node_t>(rng() % (hub - 1)), hub);
  }
  return make_game(n, edges);
}

TEST(Layering, NarrowAndWideCountersGiveTheSameLayers) {
  std::vector<OwnedGame> games;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) games.push_back(hub_graph(seed));
  games.push_back(generate({Shape::layered, 9000, 60000, 0, 4}));  // wide rounds
  // Past 2^15 nodes rounds are counted down and then scanned for; with the
  // tiny thresholds below even one thread counts down through the scatter.
  games.push_back(generate({Shape::layered, 40000, 240000, 0, 7}));
  games.push_back(generate({Shape::chain, 5000, 9000, 0, 5}));  // narrow rounds
  games.push_back(generate({Shape::powerlaw, 20000, 200000, 0, 6}));
  for (const OwnedGame& g : games) {
    Layers want;
    compute_layers(g.graph(), {1}, want, InDegreeWidth::wide);
    for (unsigned threads : {1u, 2u, 3u})
      // Tiny thresholds: rounds split between threads (blocked scatter), or
      // whole with counters that two threads own.
      for (const SolveConfig& config : {test_support::eager_loops(threads), test_support::owned_rounds(threads),
                                        test_support::owned_counts(threads), test_support::scattered_counts(threads)})
        for (InDegreeWidth width : {InDegreeWidth::narrow, InDegreeWidth::wide}) {
          Layers got;
          in_arena(threads, [&] { compute_layers(g.graph(), config, got, width); });
          ASSERT_EQ(std::vector<node_t>(got.begin.begin(), got.begin.end()),
                    std::vector<node_t>(want.begin.begin(), want.begin.end()))
              << threads << " threads, rounds from " << config.tuning.split_rounds_from;
          // The same nodes in each layer (below Tuning::cached_nodes nodes, their order
          // within a layer is discovery order, which threads change).
          for (std::size_t l = 0; l < want.count(); ++l) {
            std::vector<node_t> a(got.order.begin() + got.begin[l], got.order.begin() + got.begin[l + 1]);
            std::vector<node_t> b(want.order.begin() + want.begin[l], want.order.begin() + want.begin[l + 1]);
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            ASSERT_EQ(a, b) << "layer " << l << ", " << threads << " threads";
          }
        }
  }
}

// Narrow rounds heavy enough to split, past the cache (a deep kron graph:
// hundreds of rounds of a few hundred nodes), run as pairs on two threads
// and give the layers of one thread, for both widths of counters; on one
// thread no round is paired. A pair gives up when its second thread is
// late (another process may hold the other core): a few tries, every one
// checked. Stalled barriers do not end the pairs here (they would, where
// another process shares the cores), so that the pairs run.
TEST(Layering, PairedRoundsGiveTheLayersOfOneThread) {
  const OwnedGame g = generate({Shape::kron, 1u << 18, 1200000, 0, 5});
  for (InDegreeWidth width : {InDegreeWidth::narrow, InDegreeWidth::wide}) {
    LayeringParts one_parts;
    Layers one;
    compute_layers(g.graph(), {1}, one, width, &one_parts);
    EXPECT_EQ(one_parts.paired_rounds, 0u);
    std::uint64_t most_paired = 0;
    for (int attempt = 0; attempt < 40 && most_paired <= 100; ++attempt) {
      LayeringParts two_parts;
      Layers two;
      SolveConfig paired(2);
      paired.tuning.paired_round_stalls = ~0u;
      in_arena(2, [&] { compute_layers(g.graph(), paired, two, width, &two_parts); });
      ASSERT_EQ(two.begin, one.begin);
      ASSERT_EQ(two.order, one.order);
      most_paired = std::max(most_paired, two_parts.paired_rounds);
    }
    EXPECT_GT(most_paired, 100u) << "of " << one.count() << " rounds";
  }
}

// A graph past the cache whose sources are mostly isolated nodes (as
// R-MAT's are), in runs of many isolated ids between a few with rows, and
// whose edges go from lower ids to higher: its layers are the nodes of
// each depth, found here in one pass in id order.
struct SparseSources {
  OwnedGame game;
  std::vector<std::vector<node_t>> layers;
};

SparseSources sparse_sources(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const node_t n = 150000;  // past Tuning::cached_nodes: the staged rounds
  std::vector<bool> active(n, false);
  for (node_t u = 0; u < n;) {  // a run of isolated ids, then a few with edges
    u += static_cast<node_t>(rng() % (rng() % 8 == 0 ? 2000 : 12));
    for (node_t k = 0; k < 1 + rng() % 4 && u < n; ++k) active[u++] = true;
  }
  std::vector<node_t> ids;
  for (node_t u = 0; u < n; ++u)
    if (active[u]) ids.push_back(u);
  std::vector<std::pair<node_t, node_t>> edges;
  for (std::size_t i = 0; i + 1 < ids.size(); ++i)
    for (std::uint64_t k = 0, d = rng() % 6; k < d; ++k) {
      const std::size_t j = i + 1 + rng() % std::min<std::size_t>(400, ids.size() - 1 - i);
      edges.emplace_back(ids[i] + 1, ids[j] + 1);
    }
  SparseSources s{make_game(n, edges), {}};
  std::vector<std::size_t> depth(n, 0);
  for (node_t u = 0; u < n; ++u) {
    for (const node_t v : s.game.graph().successors(u)) depth[v] = std::max(depth[v], depth[u] + 1);
    if (depth[u] >= s.layers.size()) s.layers.resize(depth[u] + 1);
    s.layers[depth[u]].push_back(u);
  }
  return s;
}

// The wide round that drops its nodes without successors before reading
// rows (most of this one's) still counts down every row once: the layers
// are the depths, on one thread (staged, or through the blocked scatter
// with the eager thresholds) and on two that own the counters.
TEST(Layering, WideRoundsOfMostlyIsolatedNodesCountEveryRowDown) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const SparseSources s = sparse_sources(seed);
    const std::size_t isolated = s.layers[0].size() - static_cast<std::size_t>(std::count_if(
        s.layers[0].begin(), s.layers[0].end(), [&](node_t u) { return !s.game.graph().successors(u).empty(); }));
    ASSERT_GT(isolated * 2, s.layers[0].size()) << "the first round is mostly isolated nodes";
    for (unsigned threads : {1u, 2u})
      for (const SolveConfig& config :
           {SolveConfig(threads), test_support::owned_rounds(threads), test_support::eager_loops(threads)})
        for (InDegreeWidth width : {InDegreeWidth::narrow, InDegreeWidth::wide}) {
          Layers got;
          in_arena(threads, [&] { compute_layers(s.game.graph(), config, got, width); });
          ASSERT_EQ(got.count(), s.layers.size()) << "seed " << seed << ", " << threads << " threads";
          for (std::size_t l = 0; l < got.count(); ++l) {
            std::vector<node_t> layer(got.order.begin() + got.begin[l], got.order.begin() + got.begin[l + 1]);
            std::sort(layer.begin(), layer.end());
            ASSERT_EQ(layer, s.layers[l]) << "layer " << l << ", seed " << seed << ", " << threads << " threads";
          }
        }
  }
}

// The parts add up to the layering's own time (never more than the wall
// time around it), and a graph with wide rounds spends some of it scanning.
TEST(Layering, PartsAddUpToTheLayeringTime) {
  const OwnedGame g = generate({Shape::layered, 200000, 1000000, 0, 3});  // 8 wide rounds
  for (unsigned threads : {1u, 2u}) {
    LayeringParts parts;
    Layers layers;
    const auto start = std::chrono::steady_clock::now();
    in_arena(threads, [&] { compute_layers(g.graph(), {threads}, layers, InDegreeWidth::automatic, &parts); });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GT(parts.count, 0) << threads << " threads";
    EXPECT_GT(parts.scans, 0) << threads << " threads";
    EXPECT_GT(parts.rounds, 0) << threads << " threads";
    EXPECT_LE(parts.count + parts.scans + parts.rounds, wall) << threads << " threads";
    // A second layering adds to the same parts.
    const LayeringParts first = parts;
    compute_layers(g.graph(), {1}, layers, InDegreeWidth::automatic, &parts);
    EXPECT_GT(parts.count, first.count);
    EXPECT_GT(parts.rounds, first.rounds);
  }
}

TEST(Layering, NarrowCountersReportACycle) {
  // A hub of in-degree 600 on a cycle 2 -> 3000 -> 2, so that the cycle's
  // counts stay above zero in the high part too.
  OwnedGame dag = hub_graph(9);
  std::vector<node_t> pairs;
  for (node_t u = 0; u < dag.n; ++u)
    for (node_t v : dag.graph().successors(u)) pairs.insert(pairs.end(), {u, v});
  pairs.insert(pairs.end(), {1, 2999, 2999, 1});
  OwnedGame g;
  build_csr(dag.n, pairs, g);
  for (unsigned threads : {1u, 2u})
    for (const SolveConfig& config : {test_support::eager_loops(threads), test_support::owned_rounds(threads),
                                      test_support::owned_counts(threads), test_support::scattered_counts(threads)}) {
      Layers layers;
      try {
        in_arena(threads, [&] { compute_layers(g.graph(), config, layers, InDegreeWidth::narrow); });
        ADD_FAILURE() << "no cycle reported";
      } catch (const CycleError& e) {
        test_support::expect_valid_cycle(g, e.nodes());
      }
    }
}

// The scatter applies every emitted target exactly once and never two of
// one range at a time, also when the bins overflow their bound mid-emit
// (each thread then applies its own bins under the ranges' locks).
TEST(BlockedScatter, AppliesEachTargetOnceAndRangesOneAtATime) {
  const node_t n = 5 * (1u << BlockedScatter::kBinShift) + 123;
  const std::size_t items = 20000;
  const auto target = [n](std::size_t i, std::size_t j) { return static_cast<node_t>(mix(i, 3, j) % n); };
  const auto degree = [](std::size_t i) { return i % 97 == 0 ? 3000 : i % 7; };  // some hubs
  std::vector<std::uint32_t> want(n, 0);
  for (std::size_t i = 0; i < items; ++i)
    for (std::size_t j = 0; j < degree(i); ++j) ++want[target(i, j)];
  for (unsigned threads : {1u, 2u, 4u}) {
    for (std::size_t bound : {std::size_t{1} << 30, std::size_t{5000}, std::size_t{1}}) {
      std::vector<std::uint32_t> got(n, 0);
      const std::size_t ranges = (std::size_t{n} >> BlockedScatter::kBinShift) + 1;
      const auto busy = std::make_unique<std::atomic<int>[]>(ranges);
      std::atomic<bool> overlapped{false};
      in_arena(threads, [&] {
        BlockedScatter scatter(n, threads, bound);
        scatter.run(
            items, 16,
            [&](std::size_t i, auto&& sink) {
              for (std::size_t j = 0; j < degree(i); ++j) sink(target(i, j));
            },
            [&](const node_t* batch, std::size_t count) {
              ASSERT_GT(count, 0u);
              std::atomic<int>& b = busy[batch[0] >> BlockedScatter::kBinShift];
              if (b.fetch_add(1) != 0) overlapped = true;
              for (std::size_t k = 0; k < count; ++k) {
                if ((batch[k] >> BlockedScatter::kBinShift) != (batch[0] >> BlockedScatter::kBinShift))
                  overlapped = true;  // a batch spanning two ranges
                ++got[batch[k]];
              }
              b.fetch_sub(1);
            });
      });
      EXPECT_FALSE(overlapped) << threads << " threads, bound " << bound;
      ASSERT_EQ(got, want) << threads << " threads, bound " << bound;
    }
  }
}

// keep_in_range against std::copy_if: whole vector steps and scalar tails,
// ranges empty, full, of one id, and random, in place and into a copy.
TEST(RangeFilter, KeepsTheIdsInRangeInOrder) {
  std::mt19937_64 rng(11);
  constexpr node_t kMax = std::numeric_limits<node_t>::max();
  for (std::size_t count : {0u, 1u, 7u, 8u, 9u, 23u, 1000u}) {
    std::vector<node_t> ids(count);
    for (node_t& v : ids) v = rng() % 4 == 0 ? static_cast<node_t>(rng()) : static_cast<node_t>(rng() % 1000);
    if (count > 2) ids[0] = 0, ids[1] = kMax;
    const node_t r1 = static_cast<node_t>(rng() % 1000), r2 = static_cast<node_t>(rng() % 1000);
    const std::pair<node_t, node_t> ranges[] = {{0, 0},
                                                {500, 500},
                                                {0, kMax},
                                                {1, kMax},
                                                {0, 1},
                                                {ids.empty() ? 3 : ids.back(), ids.empty() ? 4 : ids.back() + 1},
                                                {std::min(r1, r2), std::max(r1, r2)}};
    for (const auto& [lo, hi] : ranges) {
      std::vector<node_t> want;
      std::copy_if(ids.begin(), ids.end(), std::back_inserter(want), [&](node_t v) { return v >= lo && v < hi; });
      std::vector<node_t> out(count);
      out.resize(keep_in_range(ids.data(), count, lo, hi, out.data()));
      EXPECT_EQ(out, want) << count << " ids in [" << lo << ", " << hi << ")";
      std::vector<node_t> same = ids;
      same.resize(keep_in_range(same.data(), count, lo, hi, same.data()));
      EXPECT_EQ(same, want) << count << " ids in place, [" << lo << ", " << hi << ")";
    }
  }
}

TEST(Tuning, RoundsSplitOnSmallerGraphsFromFourThreads) {
  // 10^6 nodes: one or two threads keep the rounds whole (splitting
  // measured a loss on 2), four and more split them (a gain on 16 cores).
  const std::size_t n = 1000000;
  const Tuning measured;
  EXPECT_FALSE(measured.splits_rounds_of(n, 1));
  EXPECT_FALSE(measured.splits_rounds_of(n, 2));
  EXPECT_TRUE(measured.splits_rounds_of(n, 4));
  EXPECT_TRUE(measured.splits_rounds_of(n, 16));
  EXPECT_FALSE(measured.splits_rounds_of(100000, 16));
  EXPECT_TRUE(measured.splits_rounds_of(std::size_t{1} << 21, 2));
  // The tests' eager configs (split_rounds_from 0) split at any count.
  EXPECT_TRUE(test_support::eager_loops(4).tuning.splits_rounds_of(10, 4));
}

TEST(Tuning, TwoThreadsOwnTheCountersOfRoundsThatDoNotSplit) {
  // On 2 threads a graph of 2^18 nodes or more has its counters owned by
  // the two, half each, however large (not the blocked scatter); one thread
  // owns nothing, and past two the rounds split through the scatter.
  const Tuning measured;
  EXPECT_TRUE(measured.owns_rounds_of(1000000, 2));
  EXPECT_TRUE(measured.owns_rounds_of(std::size_t{1} << 24, 2));
  EXPECT_FALSE(measured.owns_rounds_of(1000000, 1));
  EXPECT_FALSE(measured.owns_rounds_of(1000000, 4));
  EXPECT_FALSE(measured.owns_rounds_of(100000, 2)) << "a round of 10^5 nodes stays in cache";
  EXPECT_TRUE(test_support::owned_rounds(2).tuning.owns_rounds_of(10, 2));
}

}  // namespace
}  // namespace grundy
