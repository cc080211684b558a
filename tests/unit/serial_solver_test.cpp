#include <gtest/gtest.h>

#include <algorithm>

#include "brute_force.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/game.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::BruteForce;
using test_support::first_mex_violation;
using test_support::make_game;

OwnedGame sample() {
  return make_game(6, {{2, 1}, {2, 4}, {1, 4}, {1, 5}, {1, 3}, {4, 5}, {3, 5}, {3, 6}}, {1, 2, 4, 6});
}

TEST(SerialSolver, SampleFromTheProblem) {
  const OwnedGame g = sample();
  const auto sg = serial_sg(g.graph()).to_vector();
  EXPECT_EQ(sg, (std::vector<sg_t>{2, 0, 1, 1, 0, 0}));
  EXPECT_EQ(nim_sum(SgValues(Array<sg_t>(sg.begin(), sg.end())), g.tokens), 3u);
}

TEST(SerialSolver, EmptyGraphAndSinks) {
  EXPECT_EQ(serial_sg(make_game(0, {}).graph()).size(), 0u);
  EXPECT_EQ(serial_sg(make_game(3, {}).graph()).to_vector(), (std::vector<sg_t>{0, 0, 0}));
}

TEST(SerialSolver, DuplicateEdgesChangeNothing) {
  const auto once = serial_sg(make_game(4, {{1, 2}, {2, 3}, {1, 3}, {3, 4}}).graph()).to_vector();
  const auto many =
      serial_sg(make_game(4, {{1, 2}, {1, 2}, {2, 3}, {1, 3}, {3, 4}, {1, 3}, {3, 4}, {1, 2}}).graph()).to_vector();
  EXPECT_EQ(once, many);
  EXPECT_EQ(many, (std::vector<sg_t>{2, 0, 1, 0}));
}

// Every tiny random DAG against the game search, which knows only the rules.
// Single tokens check each SG value against zero; pairs check that two nodes
// have equal values exactly when the sum of their games is lost.
TEST(SerialSolver, MatchesBruteForceOnThousandsOfTinyDags) {
  int games = 0;
  for (std::uint64_t seed = 1; games < 2500; ++seed) {
    GenSpec spec;
    spec.nodes = 1 + seed % 7;
    spec.edges = spec.nodes < 2 ? 0 : mix(seed, 9, 0) % 14;
    spec.tokens = mix(seed, 9, 1) % 5;
    spec.seed = seed;
    const OwnedGame g = generate(spec);
    const auto sg = serial_sg(g.graph()).to_vector();
    ASSERT_EQ(first_mex_violation(g.graph(), sg), g.n) << "seed " << seed;
    BruteForce brute(g.graph());
    ASSERT_EQ(brute.first_player_wins({g.tokens.begin(), g.tokens.end()}),
              nim_sum(SgValues(Array<sg_t>(sg.begin(), sg.end())), g.tokens) != 0)
        << "seed " << seed;
    for (node_t u = 0; u < g.n; ++u) {
      ASSERT_EQ(brute.first_player_wins({u}), sg[u] != 0) << "seed " << seed << " node " << u;
      for (node_t v = u; v < g.n; ++v) ASSERT_EQ(brute.first_player_wins({u, v}), sg[u] != sg[v]) << "seed " << seed;
    }
    ++games;
  }
}

TEST(SerialSolver, TournamentsReachLargeValues) {
  for (std::uint64_t n : {65u, 130u, 210u, 300u}) {
    const OwnedGame g = generate({Shape::tournament, n, 0, 0, n});
    const auto sg = serial_sg(g.graph()).to_vector();
    EXPECT_EQ(*std::max_element(sg.begin(), sg.end()), n - 1);
    EXPECT_EQ(first_mex_violation(g.graph(), sg), g.n);
  }
}

TEST(SerialSolver, RandomDenseDagsWithLargeValues) {
  // Out-degrees in the hundreds and thousands: values past 64 and past 200,
  // so every mex goes beyond one 64-bit word.
  const std::pair<GenSpec, sg_t> cases[] = {{{Shape::uniform, 600, 150000, 0, 7}, 64},
                                            {{Shape::uniform, 1500, 1000000, 0, 8}, 200}};
  for (const auto& [spec, at_least] : cases) {
    const OwnedGame g = generate(spec);
    const auto sg = serial_sg(g.graph()).to_vector();
    EXPECT_GE(*std::max_element(sg.begin(), sg.end()), at_least);
    EXPECT_EQ(first_mex_violation(g.graph(), sg), g.n);
  }
}

TEST(SerialSolver, MillionNodeChainNeedsNoRecursion) {
  const std::uint64_t n = 1'000'000;
  const OwnedGame g = generate({Shape::chain, n, 0, 1, 3});
  const auto sg = serial_sg(g.graph()).to_vector();
  // Along a path the values alternate 0, 1 from the end.
  EXPECT_EQ(std::count(sg.begin(), sg.end(), 1u), static_cast<std::ptrdiff_t>(n / 2));
  EXPECT_EQ(std::count(sg.begin(), sg.end(), 0u), static_cast<std::ptrdiff_t>(n / 2));
}

TEST(SerialSolver, ReportsACycle) {
  try {
    serial_sg(make_game(5, {{1, 2}, {2, 4}, {4, 3}, {3, 2}, {4, 5}}).graph());
    FAIL() << "no cycle reported";
  } catch (const CycleError& e) {
    EXPECT_EQ(e.nodes(), (std::vector<node_t>{1, 3, 2, 1}));  // 2 -> 4 -> 3 -> 2
    EXPECT_STREQ(e.what(), "cycle: 2 -> 4 -> 3 -> 2");
  }
}

TEST(SerialSolver, ReportsAMillionNodeCycleWithoutRecursion) {
  std::vector<std::pair<node_t, node_t>> edges;
  const node_t n = 1'000'000;
  for (node_t u = 1; u < n; ++u) edges.emplace_back(u, u + 1);
  edges.emplace_back(n, 1);
  try {
    serial_sg(make_game(n, edges).graph());
    FAIL() << "no cycle reported";
  } catch (const CycleError& e) {
    EXPECT_EQ(e.nodes().size(), n + 1u);
    EXPECT_LT(std::string(e.what()).size(), 400u) << "long cycles are abbreviated";
    EXPECT_NE(std::string(e.what()).find("1000000 nodes"), std::string::npos) << e.what();
  }
}

TEST(WinningMove, LeavesAZeroNimSum) {
  for (std::uint64_t seed = 1; seed < 300; ++seed) {
    const OwnedGame g = generate({Shape::uniform, 30, 90, 1 + seed % 6, seed});
    const auto sg = serial_sg(g.graph()).to_vector();
    const auto mv = winning_move(g.view(), SgValues(Array<sg_t>(sg.begin(), sg.end())));
    ASSERT_EQ(mv.has_value(), nim_sum(SgValues(Array<sg_t>(sg.begin(), sg.end())), g.tokens) != 0);
    if (!mv) continue;
    ASSERT_EQ(g.tokens[mv->token], mv->from);
    const auto succ = g.graph().successors(mv->from);
    ASSERT_NE(std::find(succ.begin(), succ.end(), mv->to), succ.end());
    auto after = g.tokens;
    after[mv->token] = mv->to;
    ASSERT_EQ(nim_sum(SgValues(Array<sg_t>(sg.begin(), sg.end())), after), 0u);
  }
}

}  // namespace
}  // namespace grundy
