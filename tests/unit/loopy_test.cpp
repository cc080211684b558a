// Games with cycles: the generalized SG values against a brute-force search
// of the game itself, Fraenkel's conditions, the outcome-only analysis, the
// DAG engine on DAGs, and every thread count.
#include <gtest/gtest.h>

#include <random>

#include "grundy/core/loopy.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/solve/solver.hpp"
#include "loopy_brute_force.hpp"
#include "presets.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::make_game;

std::uint64_t plus_one(node_t u) { return std::uint64_t{u} + 1; }

// A random digraph of up to 6 nodes, self-loops and repeated edges included.
OwnedGame random_digraph(std::mt19937_64& rng) {
  const node_t n = 1 + rng() % 6;
  const std::size_t m = rng() % (3 * n + 2);
  std::vector<std::pair<node_t, node_t>> edges;
  for (std::size_t e = 0; e < m; ++e) edges.emplace_back(1 + rng() % n, 1 + rng() % n);
  return make_game(n, edges);
}

// Every multiset of 1..3 tokens: grundy's sum rule on its values gives the
// brute-force search's outcome, and a winning move reaches a lost position.
void expect_sum_rule(const OwnedGame& game, const LoopyValues& lv) {
  const CsrView g = game.graph();
  for (std::size_t k = 1; k <= 3; ++k) {
    const test_support::LoopyBruteForce brute(g, k);
    std::vector<node_t> tokens(k, 0);
    for (;;) {
      const GameView view{g, tokens};
      const Outcome want = brute.outcome(tokens);
      ASSERT_EQ(loopy_verdict(view, lv).outcome, want) << "tokens on " << tokens[0] << (k > 1 ? "..." : "");
      const auto mv = loopy_winning_move(view, lv);
      ASSERT_EQ(mv.has_value(), want == Outcome::win);
      if (mv) {
        std::vector<node_t> after = tokens;
        ASSERT_EQ(after[mv->token], mv->from);
        after[mv->token] = mv->to;
        EXPECT_EQ(brute.outcome(after), Outcome::lose);
      }
      // Next multiset (non-decreasing sequences).
      std::size_t i = k;
      while (i > 0 && tokens[i - 1] + 1 == g.n) --i;
      if (i == 0) break;
      const node_t x = tokens[i - 1] + 1;
      for (std::size_t j = i - 1; j < k; ++j) tokens[j] = x;
    }
  }
}

TEST(Loopy, ValuesDecideEverySumAsTheGameItselfDoes) {
  std::mt19937_64 rng(20261202);
  for (int trial = 0; trial < 3000; ++trial) {
    const OwnedGame game = random_digraph(rng);
    const LoopyValues lv = solve_loopy(game.graph(), {});
    ASSERT_EQ(check_loopy_conditions(game.graph(), lv, {}, plus_one), std::nullopt) << "trial " << trial;
    expect_sum_rule(game, lv);
    if (HasFatalFailure()) FAIL() << "trial " << trial;
  }
}

TEST(Loopy, KnownValues) {
  // 1 -> 2 -> 1 and 2 -> 3 (a sink): gamma(3) = 0 and gamma(2) = 1 (it can
  // reach 3); 1's only successor has value 1, which 2 reverses to 3 of value
  // 0 and a smaller counter, so gamma(1) = 0.
  const OwnedGame a = make_game(3, {{1, 2}, {2, 1}, {2, 3}});
  LoopyValues lv = solve_loopy(a.graph(), {});
  EXPECT_EQ(lv.value[0], 0u);
  EXPECT_EQ(lv.value[1], 1u);
  EXPECT_EQ(lv.value[2], 0u);
  // A 2-cycle alone: both infinite with K empty, a draw.
  const OwnedGame b = make_game(2, {{1, 2}, {2, 1}});
  lv = solve_loopy(b.graph(), {});
  EXPECT_EQ(lv.value[0], kInfinite);
  EXPECT_EQ(loopy_value_text(b.graph(), lv.value, 0, 10), "inf:");
  EXPECT_EQ(node_outcome(b.graph(), lv.value, 0), Outcome::draw);
  // A self-loop beside a sink: 1 -> 1, 1 -> 2. gamma(1) = infinity({0}): a win.
  const OwnedGame c = make_game(2, {{1, 1}, {1, 2}});
  lv = solve_loopy(c.graph(), {});
  EXPECT_EQ(loopy_value_text(c.graph(), lv.value, 0, 10), "inf:0");
  EXPECT_EQ(node_outcome(c.graph(), lv.value, 0), Outcome::win);
  // Two infinite tokens draw, even when each alone wins.
  const std::vector<node_t> two{0, 0};
  EXPECT_EQ(loopy_verdict(GameView{c.graph(), two}, lv).outcome, Outcome::draw);
}

TEST(Loopy, ValueTextShortensLongSets) {
  // Node 1 -> itself and to the sinks 2..6 of values 0 (all): K = {0}.
  // A tournament below a self-looped node gives K = {0..4}.
  std::vector<std::pair<node_t, node_t>> edges{{1, 1}};
  for (node_t u = 2; u <= 6; ++u) {
    edges.emplace_back(1, u);
    for (node_t v = u + 1; v <= 6; ++v) edges.emplace_back(u, v);
  }
  const OwnedGame g = make_game(6, edges);
  const LoopyValues lv = solve_loopy(g.graph(), {});
  EXPECT_EQ(loopy_value_text(g.graph(), lv.value, 0, 10), "inf:0,1,2,3,4");
  EXPECT_EQ(loopy_value_text(g.graph(), lv.value, 0, 2), "inf:0,1 (+3 more)");
}

TEST(Loopy, OutcomeAnalysisAgreesWithTheValues) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const OwnedGame game = random_digraph(rng);
    const LoopyValues lv = solve_loopy(game.graph(), {});
    const OutcomeTable out = solve_outcomes(game.graph(), {});
    ASSERT_EQ(compare_outcomes(game.graph(), lv, out.of, {}), std::nullopt) << "trial " << trial;
    // A won node's move reaches a lost one decided earlier than any lost
    // node the loser's replies can reach next: play from a win ends.
    const CsrView g = game.graph();
    for (node_t u = 0; u < g.n; ++u) {
      const auto to = outcome_move(g, out, u);
      ASSERT_EQ(to.has_value(), out.of[u] == Outcome::win);
      if (!to) continue;
      ASSERT_EQ(out.of[*to], Outcome::lose);
      for (node_t reply : g.successors(*to)) {
        ASSERT_EQ(out.of[reply], Outcome::win);
        EXPECT_LT(out.round[*outcome_move(g, out, reply)], out.round[*to]);
      }
    }
  }
}

TEST(Loopy, OnADagTheValuesAreTheSgValues) {
  for (Shape shape : {Shape::uniform, Shape::chain, Shape::powerlaw, Shape::kron, Shape::tournament}) {
    const OwnedGame game = generate({shape, 2000, 20000, 5, 3});
    const std::vector<sg_t> sg = solve_sg(game.graph(), Algo::serial, ParallelConfig{}).to_vector();
    const LoopyValues lv = solve_loopy(game.graph(), {});
    ASSERT_EQ(std::vector<sg_t>(lv.value.begin(), lv.value.end()), sg) << shape_name(shape);
  }
}

// Larger digraphs with cycles: the conditions hold, and every thread count
// (with thresholds low enough that the rounds really split) gives the same
// values and counters.
TEST(Loopy, SameValuesAndCountersForEveryThreadCount) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const node_t n = 50 + rng() % 3000;
    std::vector<std::pair<node_t, node_t>> edges;
    const std::size_t m = n * (1 + rng() % 4);
    for (std::size_t e = 0; e < m; ++e) {
      // Mostly forward edges (a DAG part), some back edges (cycles).
      node_t u = 1 + rng() % n, v = 1 + rng() % n;
      if (rng() % 8 != 0 && u > v) std::swap(u, v);
      edges.emplace_back(u, v);
    }
    const OwnedGame game = make_game(n, edges);
    const LoopyValues one = solve_loopy(game.graph(), {});
    ASSERT_EQ(check_loopy_conditions(game.graph(), one, {}, plus_one), std::nullopt);
    for (unsigned threads : {2u, 4u}) {
      const ParallelConfig pc = test_support::loops(threads, 2, 3);
      const LoopyValues many = in_arena(threads, [&] { return solve_loopy(game.graph(), pc); });
      ASSERT_TRUE(std::equal(one.value.begin(), one.value.end(), many.value.begin())) << threads << " threads";
      ASSERT_TRUE(std::equal(one.counter.begin(), one.counter.end(), many.counter.begin())) << threads << " threads";
      const OutcomeTable out = in_arena(threads, [&] { return solve_outcomes(game.graph(), pc); });
      ASSERT_EQ(compare_outcomes(game.graph(), one, out.of, pc), std::nullopt);
    }
  }
}

TEST(Loopy, ConditionsCatchAWrongValue) {
  const OwnedGame game = make_game(3, {{1, 2}, {2, 1}, {2, 3}});
  LoopyValues lv = solve_loopy(game.graph(), {});
  lv.value[0] = 2;  // (A): the mex of {1} is 0
  auto bad = check_loopy_conditions(game.graph(), lv, {}, plus_one);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->node, 0u);
  EXPECT_NE(bad->what.find("condition (A): node 1"), std::string::npos) << bad->what;
  lv = solve_loopy(game.graph(), {});
  lv.counter[2] = 1000;  // (B): 1 -> 2 (value 1) must reverse to 3 with a smaller counter
  bad = check_loopy_conditions(game.graph(), lv, {}, plus_one);
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->what.find("condition (B)"), std::string::npos) << bad->what;
  const OwnedGame cyc = make_game(2, {{1, 2}, {2, 1}});
  lv = solve_loopy(cyc.graph(), {});
  lv.value[0] = lv.value[1] = 0;  // (A): each one's successor has value 0, so its mex is 1
  bad = check_loopy_conditions(cyc.graph(), lv, {}, plus_one);
  ASSERT_TRUE(bad.has_value());
  const OwnedGame sink = make_game(2, {{1, 2}});
  lv = solve_loopy(sink.graph(), {});
  lv.value[0] = kInfinite;  // (C): no infinite successor at all
  bad = check_loopy_conditions(sink.graph(), lv, {}, plus_one);
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->what.find("condition (C): node 1"), std::string::npos) << bad->what;
}

}  // namespace
}  // namespace grundy
