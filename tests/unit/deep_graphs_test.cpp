// The deep-graph path: the locality order's walks, and the level engine's
// renumbered solve, against the reference solver for every thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "presets.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/locality_order.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "grundy/solve/tuning.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::deep;
using test_support::expect_valid_cycle;
using test_support::Widened;

// A DAG whose nodes lie on a line in a shuffled id order: the node at
// position p points at `picks` distinct nodes among the next `reach`
// positions (picks 1, reach 1: a chain). With `sources` > 1, that many lines.
OwnedGame line_dag(node_t n, unsigned picks, unsigned reach, std::uint64_t seed, node_t lines = 1) {
  std::mt19937_64 rng(seed);
  std::vector<node_t> id(n);
  std::iota(id.begin(), id.end(), 0);
  std::shuffle(id.begin(), id.end(), rng);
  std::vector<node_t> pairs;
  const node_t per_line = n / lines;
  for (node_t p = 0; p < n; ++p) {
    const node_t line_end = std::min<node_t>(n, (p / per_line + 1) * per_line);
    std::vector<node_t> ahead;
    for (node_t q = p + 1; q < line_end && q <= p + reach; ++q) ahead.push_back(q);
    std::shuffle(ahead.begin(), ahead.end(), rng);
    ahead.resize(std::min<std::size_t>(ahead.size(), picks));
    for (const node_t q : ahead) {
      pairs.push_back(id[p]);
      pairs.push_back(id[q]);
    }
  }
  OwnedGame g;
  build_csr(n, pairs, g);
  return g;
}

std::vector<std::pair<std::string, OwnedGame>> deep_corpus() {
  std::vector<std::pair<std::string, OwnedGame>> graphs;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    graphs.emplace_back("chain " + std::to_string(seed), line_dag(3000 + 700 * seed, 1, 1, seed));
    graphs.emplace_back("skip chain " + std::to_string(seed), line_dag(4000, 2, 64, seed));
    graphs.emplace_back("3 of the next 10 " + std::to_string(seed), line_dag(5000, 3, 10, seed));
    graphs.emplace_back("7 chains " + std::to_string(seed), line_dag(7000, 2, 5, seed, 7));
    graphs.emplace_back("gen chain " + std::to_string(seed),
                        generate({Shape::chain, 2000 + 500 * seed, 6000 + 900 * seed, 3, seed}));
  }
  // Deep, with hubs: rows longer than a walk copies (Tuning::walk_row_copy)
  // go from the graph into place, wherever a walk meets them.
  {
    OwnedGame chain = line_dag(12000, 1, 1, 8);
    std::vector<node_t> pairs;
    for (node_t u = 0; u < chain.n; ++u)
      for (const node_t v : chain.graph().successors(u)) pairs.insert(pairs.end(), {u, v});
    const node_t hub = chain.n, hub_row = static_cast<node_t>(Tuning::walk_row_copy + 900);
    for (node_t h = 0; h < 3; ++h)
      for (node_t i = 0; i < hub_row; ++i) pairs.insert(pairs.end(), {hub + h, (i * 7 + h) % chain.n});
    pairs.insert(pairs.end(), {hub, hub + 1, hub + 1, hub + 2});  // hubs reached mid-walk
    OwnedGame hubs;
    build_csr(chain.n + 3, pairs, hubs);
    graphs.emplace_back("chain with hubs", std::move(hubs));
  }
  // Wide at first, then deep: a uniform DAG whose every node also points at the head of a chain.
  OwnedGame top = generate({Shape::uniform, 3000, 20000, 2, 9});
  std::vector<node_t> pairs;
  for (node_t u = 0; u < top.n; ++u)
    for (const node_t v : top.graph().successors(u)) pairs.insert(pairs.end(), {u, v});
  const node_t chain_len = 6000, n = top.n + chain_len;
  for (node_t u = 0; u < top.n; u += 7) pairs.insert(pairs.end(), {u, top.n});
  for (node_t i = 0; i + 1 < chain_len; ++i) pairs.insert(pairs.end(), {top.n + i, top.n + i + 1});
  for (node_t i = 0; i + 1 < chain_len; i += 3)
    pairs.insert(pairs.end(), {top.n + i, top.n + i + 1});  // repeated edges
  OwnedGame mixed;
  build_csr(n, pairs, mixed);
  graphs.emplace_back("wide then deep", std::move(mixed));
  return graphs;
}

// The renumbering's order is a permutation, and its copy holds every old
// node's row in the new ids, in the row's order, with 32-bit and 64-bit ids.
template <class Target>
void expect_renumbered(const BasicCsr<Target>& g, const LocalityRenumbering& r) {
  std::vector<node_t> sorted(r.order.get(), r.order.get() + g.n);
  std::sort(sorted.begin(), sorted.end());
  std::vector<node_t> all(g.n);
  std::iota(all.begin(), all.end(), 0);
  ASSERT_EQ(sorted, all);
  std::vector<node_t> position(g.n);
  for (node_t i = 0; i < g.n; ++i) position[r.order[i]] = i;
  ASSERT_EQ(r.view.n, g.n);
  ASSERT_EQ(r.view.m, g.m);
  ASSERT_EQ(r.view.offsets[0], 0u);
  for (node_t i = 0; i < g.n; ++i) {
    std::vector<node_t> want;
    for (const auto v : g.successors(r.order[i])) want.push_back(position[v]);
    const auto got = r.view.successors(i);
    ASSERT_EQ(std::vector<node_t>(got.begin(), got.end()), want) << "new node " << i;
  }
}

TEST(LocalityOrder, RenumbersEveryRowOnEveryThreadCount) {
  for (const auto& [name, g] : deep_corpus()) {
    SCOPED_TRACE(name);
    const Widened wide(g.graph());
    for (unsigned threads : {1u, 2u, 4u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      const auto r = in_arena(threads, [&] { return renumber_by_locality(g.graph(), deep(threads)); });
      expect_renumbered(g.graph(), r);
      const auto r_wide = in_arena(threads, [&] { return renumber_by_locality(wide.graph, deep(threads)); });
      expect_renumbered(wide.graph, r_wide);
    }
  }
}

// On one thread a chain's walks follow it: every node but the last of a
// walk has its successor right after it, so few edges jump.
TEST(LocalityOrder, LaysAChainOutInRuns) {
  const OwnedGame g = line_dag(20000, 1, 1, 3);
  const LocalityRenumbering r = renumber_by_locality(g.graph(), deep(1));
  std::size_t runs = 0;
  for (node_t i = 0; i < g.n; ++i) {
    const auto next = r.view.successors(i);
    runs += i + 1 == g.n || next.empty() || next[0] != i + 1;
  }
  // Rulers are 1 in 256: about 20000 / 256 = 78 walks, each one run.
  EXPECT_LT(runs, 20000u / 16) << "a chain laid out in " << runs << " runs";
}

TEST(DeepGraphs, TheRenumberedSolveAgreesWithTheReference) {
  for (const auto& [name, g] : deep_corpus()) {
    SCOPED_TRACE(name);
    const Widened wide(g.graph());
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    for (unsigned threads : {1u, 2u, 3u, 4u}) {
      PhaseTimer timer;
      const auto got = in_arena(threads, [&] { return level_sg(g.graph(), deep(threads), &timer); });
      ASSERT_EQ(got.to_vector(), want) << threads << " threads";
      const auto& phases = timer.phases();
      EXPECT_TRUE(std::any_of(phases.begin(), phases.end(), [](const auto& p) { return p.name == "locality order"; }))
          << "the deep path was not taken";
      const auto wide_got = in_arena(threads, [&] { return level_sg(wide.graph, deep(threads)); });
      ASSERT_EQ(wide_got.to_vector(), want) << threads << " threads, 64-bit ids";
    }
  }
}

// On up to two threads the renumbering is walked depth first, from three on
// it is layered; both give the depth a batch reports: the graph's own
// number of layers.
TEST(DeepGraphs, TheRenumberingIsWalkedOnTwoThreadsAtMostWithTheGraphsDepth) {
  SolveConfig as_is = deep(1);
  as_is.tuning.reorder_deep_from = SIZE_MAX;
  for (const auto& [name, g] : deep_corpus()) {
    SCOPED_TRACE(name);
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    const std::size_t layers = compute_layers(g.graph(), as_is).count();
    for (unsigned threads : {1u, 2u, 3u}) {
      LevelScratch scratch;
      scratch.wants_depth = true;
      SgValues got;
      PhaseTimer timer;
      in_arena(threads, [&] { level_sg(g.graph(), deep(threads), scratch, got, &timer); });
      ASSERT_EQ(got.to_vector(), want) << threads << " threads";
      EXPECT_EQ(scratch.depth, layers) << threads << " threads";
      const auto& phases = timer.phases();
      const auto has = [&](const char* phase) {
        return std::any_of(phases.begin(), phases.end(), [&](const auto& p) { return p.name == phase; });
      };
      EXPECT_TRUE(has("locality order")) << threads << " threads: the deep path was not taken";
      EXPECT_EQ(has("dfs + mex"), threads <= Tuning::depth_first_max_threads) << threads << " threads";
    }
  }
}

TEST(DeepGraphs, AShallowGraphIsNotRenumbered) {
  const OwnedGame g = generate({Shape::uniform, 5000, 40000, 2, 4});
  PhaseTimer timer;
  const auto got = level_sg(g.graph(), deep(2), &timer);
  EXPECT_EQ(got.to_vector(), serial_sg(g.graph()).to_vector());
  for (const auto& p : timer.phases()) EXPECT_NE(p.name, "locality order");
}

// Layering on the renumbering gives the graph's own layers back in its ids:
// the same as layering it as it lies, layer by layer as sets.
TEST(DeepGraphs, LayersAreTheGraphsOwnWhateverTheIds) {
  SolveConfig as_is = deep(1);
  as_is.tuning.reorder_deep_from = SIZE_MAX;
  for (const auto& [name, g] : deep_corpus()) {
    SCOPED_TRACE(name);
    const Layers want = compute_layers(g.graph(), as_is);
    for (unsigned threads : {1u, 2u, 4u}) {
      const Layers got = in_arena(threads, [&] { return compute_layers(g.graph(), deep(threads)); });
      ASSERT_EQ(got.count(), want.count()) << threads << " threads";
      ASSERT_EQ(std::vector<node_t>(got.begin.begin(), got.begin.end()),
                std::vector<node_t>(want.begin.begin(), want.begin.end()));
      for (std::size_t l = 0; l < want.count(); ++l) {
        std::vector<node_t> a(want.order.begin() + want.begin[l], want.order.begin() + want.begin[l + 1]);
        const std::vector<node_t> b(got.order.begin() + got.begin[l], got.order.begin() + got.begin[l + 1]);
        std::sort(a.begin(), a.end());
        ASSERT_EQ(b, a) << "layer " << l << ", " << threads << " threads (each in ascending id order)";
      }
    }
  }
}

// A cycle deep down a chain is found in the renumbered graph and named in
// the caller's ids.
TEST(DeepGraphs, ACycleIsNamedInTheCallersIds) {
  const node_t n = 5000;
  std::vector<node_t> pairs;
  for (node_t i = 0; i + 1 < n; ++i) pairs.insert(pairs.end(), {(i * 7919) % n, ((i + 1) * 7919) % n});
  pairs.insert(pairs.end(), {((n - 1) * 7919) % n, ((n - 40) * 7919) % n});
  OwnedGame g;
  build_csr(n, pairs, g);
  for (unsigned threads : {1u, 2u}) {
    PhaseTimer timer;
    try {
      in_arena(threads, [&] { return level_sg(g.graph(), deep(threads), &timer); });
      FAIL() << "no cycle found";
    } catch (const CycleError& e) {
      expect_valid_cycle(g, e.nodes());
      EXPECT_EQ(e.nodes().size(), 41u);
    }
    const auto& phases = timer.phases();
    EXPECT_TRUE(std::any_of(phases.begin(), phases.end(), [](const auto& p) { return p.name == "locality order"; }));
    try {
      in_arena(threads, [&] { return compute_layers(g.graph(), deep(threads)); });
      FAIL() << "no cycle found by layering";
    } catch (const CycleError& e) {
      expect_valid_cycle(g, e.nodes());
    }
  }
}

}  // namespace
}  // namespace grundy
