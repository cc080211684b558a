// The public API (grundy/grundy.hpp): views without copies, checked; the
// engine's values; verdicts and moves; errors as grundy::Error with the
// CLI's messages; files, generated graphs and batches.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <tuple>

#include "grundy/grundy.hpp"
#include "grundy/api/timer_observer.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "error_of.hpp"
#include "run_process.hpp"

namespace {

using grundy::test_support::error_of;

TEST(Api, ViewsTheCallersArraysAndGivesTheEnginesValues) {
  const grundy::OwnedGame game = grundy::generate({grundy::Shape::uniform, 3000, 20000, 5, 4});
  const std::vector<std::uint64_t> offsets(game.offsets.begin(), game.offsets.end());
  const std::vector<std::uint32_t> targets(game.targets.begin(), game.targets.end());
  const grundy::Graph g = grundy::Graph::view(offsets, targets);
  EXPECT_EQ(g.targets().data(), targets.data()) << "the targets are viewed, not copied";
  EXPECT_EQ(g.offsets().data(), offsets.data());
  EXPECT_EQ(g.nodes(), 3000u);
  EXPECT_EQ(g.edges(), 20000u);
  const std::vector<grundy::sg_t> want = grundy::serial_sg(game.graph()).to_vector();
  for (unsigned threads : {1u, 2u, 4u}) {
    for (grundy::Engine e : {grundy::Engine::automatic, grundy::Engine::serial, grundy::Engine::bgl}) {
      const grundy::Values v = grundy::sg(g, {.engine = e, .threads = threads});
      EXPECT_EQ(v.to_vector(), want);
    }
  }
  EXPECT_EQ(grundy::sg(g, {.loopy = true}).to_vector(), want) << "on a DAG the loopy values are the SG values";
  // 32-bit offsets are widened; the targets are still the caller's.
  const std::vector<std::int32_t> o32(offsets.begin(), offsets.end());
  const std::vector<std::int32_t> t32(targets.begin(), targets.end());
  const grundy::Graph narrow = grundy::Graph::view(o32, t32);
  EXPECT_EQ(static_cast<const void*>(narrow.targets().data()), static_cast<const void*>(t32.data()));
  EXPECT_EQ(grundy::sg(narrow).to_vector(), want);
}

// 64-bit ids (SciPy's int64 indices) are read where they lie: every engine,
// thread count, loopy and verify give the 32-bit graph's values, and the
// answers and moves agree; a negative or too-large id is named.
TEST(Api, ReadsSixtyFourBitIdsInPlace) {
  for (const char* shape : {"uniform", "powerlaw", "chain", "layered"}) {
    const grundy::Graph g = grundy::Graph::generate(shape, 5000, 40000, 6, 3);
    const std::vector<std::int64_t> offsets(g.offsets().begin(), g.offsets().end());
    const std::vector<std::int64_t> targets(g.targets().begin(), g.targets().end());
    const grundy::Graph wide = grundy::Graph::view(offsets, targets);
    ASSERT_EQ(wide.id_bits(), 64u);
    EXPECT_EQ(static_cast<const void*>(wide.wide_targets().data()), static_cast<const void*>(targets.data()))
        << "the 64-bit targets are viewed, not narrowed into a copy";
    EXPECT_NE(error_of([&] { (void)wide.targets(); }).find("64-bit"), std::string::npos);
    const std::vector<std::uint32_t> want = grundy::sg(g, {.engine = grundy::Engine::serial}).to_vector();
    for (unsigned threads : {1u, 2u, 4u})
      for (grundy::Engine e : {grundy::Engine::automatic, grundy::Engine::serial, grundy::Engine::bgl})
        EXPECT_EQ(grundy::sg(wide, {.engine = e, .threads = threads, .verify = true}).to_vector(), want) << shape;
    EXPECT_EQ(grundy::sg(wide, {.loopy = true, .verify = true}).to_vector(), want) << shape;
    const grundy::Answer a = grundy::solve(g, g.tokens()), b = grundy::solve(wide, g.tokens());
    EXPECT_EQ(a.verdict, b.verdict);
    EXPECT_EQ(a.nim_sum, b.nim_sum);
    ASSERT_EQ(a.move.has_value(), b.move.has_value());
    if (a.move) {
      EXPECT_EQ(std::tie(a.move->token, a.move->from, a.move->to), std::tie(b.move->token, b.move->from, b.move->to));
    }
  }
  // A cycle, a graph with cycles, and bad ids, through 64-bit arrays.
  const std::vector<std::uint64_t> o{0, 1, 2, 2}, t{1, 0};
  const grundy::Graph cyclic = grundy::Graph::view(o, t, "c");
  EXPECT_EQ(error_of([&] { grundy::sg(cyclic); }), "c: cycle: 1 -> 2 -> 1 (a game with cycles: use --loopy)");
  const std::vector<std::uint32_t> loopy = grundy::sg(cyclic, {.loopy = true, .verify = true}).to_vector();
  EXPECT_EQ(loopy, (std::vector<std::uint32_t>{grundy::Values::infinite, grundy::Values::infinite, 0}));
  EXPECT_EQ(grundy::solve(cyclic, std::vector<std::uint32_t>{0}, {.loopy = true}).verdict, grundy::Verdict::draw);
  const std::vector<std::int64_t> o2{0, 1, 1}, negative{-1}, big{std::int64_t{1} << 40};
  EXPECT_EQ(error_of([&] { grundy::Graph::view(o2, negative); }), "<graph>: targets[0] = -1 is not a node (ids 0..1)");
  EXPECT_EQ(error_of([&] { grundy::Graph::view(o2, big); }),
            "<graph>: targets[0] = 1099511627776 is not a node (ids 0..1)");
  // 32-bit offsets (widened) with 64-bit ids (viewed).
  const std::vector<std::int32_t> o32{0, 1, 1};
  const std::vector<std::int64_t> one{1};
  const grundy::Graph mixed = grundy::Graph::view(o32, one);
  EXPECT_EQ(static_cast<const void*>(mixed.wide_targets().data()), static_cast<const void*>(one.data()));
  EXPECT_EQ(grundy::sg(mixed).to_vector(), (std::vector<std::uint32_t>{1, 0}));
}

// Past the cache (Tuning::cached_nodes) the level engine stages rows,
// prefetches, batches its mex and splits rounds between threads: each of
// those paths over 64-bit ids gives the 32-bit graph's values.
TEST(Api, SixtyFourBitIdsPastTheCache) {
  for (const char* shape : {"uniform", "kron", "chain"}) {
    const grundy::Graph g = grundy::Graph::generate(shape, 150000, 900000, 4, 7);
    const std::vector<std::uint64_t> targets(g.targets().begin(), g.targets().end());
    const grundy::Graph wide = grundy::Graph::view(g.offsets(), std::span<const std::uint64_t>(targets));
    for (unsigned threads : {1u, 2u}) {
      const grundy::Options o{.threads = threads};
      EXPECT_EQ(grundy::sg(wide, o).to_vector(), grundy::sg(g, o).to_vector()) << shape << " " << threads;
    }
  }
}

// Options::observer hears every phase of load, sg and verify, each start
// matched by its end, in order; a TimerObserver (the grundy command's) has
// the engine record into its PhaseTimer directly.
TEST(Api, AnObserverHearsEachPhaseStartAndEnd) {
  struct Log : grundy::Observer {
    std::vector<std::string> events;
    void phase_started(const std::string& name) override { events.push_back("+" + name); }
    void phase_finished(const std::string& name, double seconds) override {
      events.push_back("-" + name);
      EXPECT_GE(seconds, 0.0);
    }
  } log;
  const std::string path = testing::TempDir() + "observer.txt";
  std::ofstream(path) << "4 4 2\n1 2\n2 3\n1 3\n3 4\n1 4\n";
  const grundy::Options o{.threads = 2, .observer = &log};
  const grundy::Graph g = grundy::Graph::load(path, o);
  grundy::verify(g, grundy::sg(g, o), o);
  const std::vector<std::string> want{"+map input", "-map input", "+parse", "-parse", "+build CSR", "-build CSR",
                                      "+layering", "-layering", "+mex", "-mex", "+bgl build", "-bgl build",
                                      "+bgl topological sort", "-bgl topological sort", "+bgl mex", "-bgl mex",
                                      "+verify", "-verify"};
  EXPECT_EQ(log.events, want);
  grundy::PhaseTimer timer;
  grundy::api::TimerObserver own(timer);
  grundy::sg(g, {.observer = &own});
  ASSERT_EQ(timer.phases().size(), 2u);
  EXPECT_EQ(timer.phases()[0].name, "layering");
  EXPECT_GT(timer.layering_parts.count + timer.layering_parts.rounds, 0.0) << "the engine's own record, not a relay";
}

// outcomes(): a single token's win, lose or draw on each node, the same as
// the loopy values give; solve() from them moves to a lost node; verify()
// checks them against the values; another graph's are refused.
TEST(Api, OutcomesAgreeWithTheLoopyValues) {
  const grundy::Graph g = grundy::Graph::generate("digraph", 3000, 9000, 1, 5);
  const grundy::Outcomes out = grundy::outcomes(g, {.threads = 2});
  const grundy::Values values = grundy::sg(g, {.loopy = true});
  ASSERT_EQ(out.size(), g.nodes());
  std::size_t draws = 0;
  for (std::uint32_t u = 0; u < g.nodes(); ++u) {
    const std::vector<std::uint32_t> one{u};
    EXPECT_EQ(out[u], grundy::solve(g, values, one).verdict) << u;
    draws += out[u] == grundy::Verdict::draw;
    const grundy::Answer a = grundy::solve(g, out, u);
    EXPECT_EQ(a.verdict, out[u]);
    ASSERT_EQ(a.move.has_value(), out[u] == grundy::Verdict::win) << u;
    if (a.move) {
      EXPECT_EQ(out[a.move->to], grundy::Verdict::lose) << u;
    }
  }
  EXPECT_GT(draws, 0u) << "a digraph with draws";
  EXPECT_NE(grundy::verify(g, values, out).find("verified"), std::string::npos);
  const grundy::Graph other = grundy::Graph::generate("digraph", 100, 300, 1, 5);
  EXPECT_NE(error_of([&] { grundy::solve(other, out, 0); }).find("another graph's"), std::string::npos);
  const grundy::Graph dag = grundy::Graph::generate("uniform", 100, 300, 1, 5);
  EXPECT_NE(error_of([&] { grundy::verify(dag, grundy::sg(dag), grundy::outcomes(dag)); }).find("loopy values"),
            std::string::npos);
}

// Options::verify and verify(): right values pass on every engine, thread
// count and kind; one planted wrong value, DAG or loopy, is an Error that
// names the first wrong node in the user's (1-based) ids.
TEST(Api, VerifyChecksEveryValueAndNamesAWrongOne) {
  const grundy::Graph g = grundy::Graph::generate("uniform", 2000, 12000, 5, 9);
  for (unsigned threads : {1u, 2u})
    for (grundy::Engine e : {grundy::Engine::automatic, grundy::Engine::serial})
      EXPECT_EQ(error_of([&] { grundy::sg(g, {.engine = e, .threads = threads, .verify = true}); }), "");
  const grundy::Graph cyclic = grundy::Graph::generate("digraph", 1500, 6000, 1, 3);
  EXPECT_EQ(error_of([&] { grundy::sg(cyclic, {.loopy = true, .verify = true}); }), "");
  EXPECT_EQ(error_of([&] { grundy::solve(g, g.tokens(), {.verify = true}); }), "");
  for (const grundy::Graph* graph : {&g, &cyclic}) {
    const grundy::Values v = grundy::sg(*graph, {.loopy = graph == &cyclic});
    EXPECT_NE(grundy::verify(*graph, v).find("verified"), std::string::npos);
    // The engine's array, changed behind the API's back: node 8 (id 9).
    if (v.width() == 16) const_cast<std::uint16_t*>(static_cast<const std::uint16_t*>(v.data()))[8] ^= 1;
    else const_cast<std::uint32_t*>(static_cast<const std::uint32_t*>(v.data()))[8] ^= 1;
    const std::string why = error_of([&] { grundy::verify(*graph, v); });
    EXPECT_NE(why.find("verification failed"), std::string::npos) << why;
    // A DAG's check compares node by node; Fraenkel's conditions may fail
    // first at a predecessor of the changed node.
    if (graph == &g) {
      EXPECT_NE(why.find("node 9 has SG"), std::string::npos) << why;
    }
  }
  const grundy::Values other = grundy::sg(cyclic, {.loopy = true});
  EXPECT_NE(error_of([&] { grundy::verify(g, other); }).find("another graph's"), std::string::npos);
}

// The checks `grundy bench` runs on every trial: the mex rule alone, and
// values or outcomes against a reference; each names the first node that
// differs, in the user's ids, once a value is changed behind the API's back.
TEST(Api, TrialChecksNameTheFirstDifferingNode) {
  const grundy::Graph g = grundy::Graph::generate("powerlaw", 3000, 15000, 5, 4);
  const grundy::Values reference = grundy::sg(g, {.engine = grundy::Engine::bgl});
  const grundy::Values v = grundy::sg(g, {.threads = 2});
  EXPECT_EQ(grundy::verify_mex_rule(g, v, {.threads = 2}), "verified: mex rule, 3000 nodes, 15000 edges");
  EXPECT_NE(grundy::verify(g, v, reference).find("verified"), std::string::npos);
  if (v.width() == 16) const_cast<std::uint16_t*>(static_cast<const std::uint16_t*>(v.data()))[41] ^= 1;
  else const_cast<std::uint32_t*>(static_cast<const std::uint32_t*>(v.data()))[41] ^= 1;
  EXPECT_NE(error_of([&] { grundy::verify(g, v, reference); }).find("verification failed (baseline): node 42 has SG"),
            std::string::npos);
  const std::string why = error_of([&] { grundy::verify_mex_rule(g, v); });
  EXPECT_NE(why.find("verification failed (mex rule): node"), std::string::npos) << why;

  const grundy::Graph cyclic = grundy::Graph::generate("digraph", 2000, 6000, 1, 3);
  const grundy::Values want = grundy::sg(cyclic, {.loopy = true});
  const grundy::Values got = grundy::sg(cyclic, {.threads = 2, .loopy = true});
  EXPECT_NE(grundy::verify(cyclic, got, want).find("verified"), std::string::npos);
  const_cast<std::uint32_t*>(static_cast<const std::uint32_t*>(got.data()))[6] ^= 1;
  EXPECT_NE(error_of([&] { grundy::verify(cyclic, got, want); }).find("(reference values): node 7 has value"),
            std::string::npos);
  EXPECT_NE(error_of([&] { grundy::verify(cyclic, got, reference); }).find("another graph's"), std::string::npos);
  EXPECT_NE(error_of([&] { grundy::verify(g, reference, grundy::sg(g, {.loopy = true})); }).find("cannot be compared"),
            std::string::npos);
  EXPECT_NE(error_of([&] { grundy::verify_mex_rule(cyclic, want); }).find("loopy values"), std::string::npos);

  const grundy::Outcomes a = grundy::outcomes(cyclic), b = grundy::outcomes(cyclic, {.threads = 2});
  EXPECT_NE(grundy::verify(cyclic, a, b).find("verified"), std::string::npos);
  // Another digraph's outcomes, of the same size: the first node where they
  // differ is named, as the user numbers it.
  const grundy::Outcomes c = grundy::outcomes(grundy::Graph::generate("digraph", 2000, 6000, 1, 4));
  std::uint32_t first = 0;
  while (first < 2000 && a[first] == c[first]) ++first;
  ASSERT_LT(first, 2000u) << "the test needs outcomes that differ";
  EXPECT_NE(error_of([&] { grundy::verify(cyclic, c, a); })
                .find("(reference outcomes): node " + std::to_string(first + 1) + " is " +
                      grundy::verdict_word(c[first]) + ", expected " + grundy::verdict_word(a[first])),
            std::string::npos);
  const grundy::Graph sink = grundy::Graph::from_edges(2, std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 1}});
  EXPECT_NE(error_of([&] { grundy::verify(sink, grundy::outcomes(sink), grundy::outcomes(cyclic)); })
                .find("another graph's"),
            std::string::npos);
}

TEST(Api, SolvesWithMovesAndDraws) {
  // 0 -> 1 -> 2: SG 0, 1, 0 (0's only successor has value 1).
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> path{{0, 1}, {1, 2}};
  const grundy::Graph g = grundy::Graph::from_edges(3, path);
  const std::vector<std::uint32_t> on1{1};
  const grundy::Answer a = grundy::solve(g, on1);
  EXPECT_EQ(a.verdict, grundy::Verdict::win);
  EXPECT_EQ(a.nim_sum, 1u);
  ASSERT_TRUE(a.move.has_value());
  EXPECT_EQ(a.move->token, 0u);
  EXPECT_EQ(a.move->from, 1u);
  EXPECT_EQ(a.move->to, 2u);
  const std::vector<std::uint32_t> on0{0};
  EXPECT_EQ(grundy::solve(g, on0).verdict, grundy::Verdict::lose);
  // A 2-cycle: an Error naming it, or with loopy a draw.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> cycle{{0, 1}, {1, 0}};
  const grundy::Graph c = grundy::Graph::from_edges(2, cycle);
  EXPECT_EQ(error_of([&] { grundy::sg(c); }), "<edges>: cycle: 1 -> 2 -> 1 (a game with cycles: use --loopy)");
  const grundy::Answer d = grundy::solve(c, on0, {.loopy = true});
  EXPECT_EQ(d.verdict, grundy::Verdict::draw);
  EXPECT_FALSE(d.move.has_value());
  EXPECT_EQ(grundy::sg(c, {.loopy = true})[0], grundy::Values::infinite);
  EXPECT_STREQ(grundy::verdict_word(d.verdict), "draw");
}

TEST(Api, BadViewsAreErrorsNamingTheEntry) {
  const std::vector<std::uint64_t> down{0, 2, 1, 3};
  const std::vector<std::uint32_t> t3{1, 2, 0};
  EXPECT_EQ(error_of([&] { grundy::Graph::view(down, t3, "g"); }), "g: offsets[2] = 1 is less than offsets[1] = 2");
  const std::vector<std::uint64_t> ok{0, 1, 2, 3};
  const std::vector<std::uint32_t> far{1, 7, 0};
  EXPECT_EQ(error_of([&] { grundy::Graph::view(ok, far, "g"); }), "g: targets[1] = 7 is not a node (ids 0..2)");
  const std::vector<std::int32_t> negative{0, 1, 2, 3}, bad_target{1, -1, 0};
  EXPECT_EQ(error_of([&] { grundy::Graph::view(negative, bad_target, "g"); }), "g: targets[1] = -1 is not a node (ids 0..2)");
  const std::vector<std::uint64_t> short_end{0, 1, 2, 2};
  EXPECT_EQ(error_of([&] { grundy::Graph::view(short_end, t3, "g"); }), "g: offsets[3] is 2, but there are 3 targets");
  EXPECT_NE(error_of([&] { grundy::Graph::view(std::span<const std::uint64_t>(), t3, "g"); }), "");
  const grundy::Graph g = grundy::Graph::view(ok, t3);
  const std::vector<std::uint32_t> off_graph{3};
  EXPECT_EQ(error_of([&] { grundy::solve(g, off_graph); }), "<graph>: token 0 is on 3, not a node (ids 0..2)");
}

TEST(Api, LoadsFilesGeneratesAndBatches) {
  grundy::test_support::TempDir dir;
  const std::string text = dir.write("g.txt", "3 3 1\n1 2\n2 1\n2 3\n2\n");
  EXPECT_NE(error_of([&] { grundy::sg(grundy::Graph::load(text)); }).find("cycle: 1 -> 2 -> 1"), std::string::npos);
  const grundy::Graph g = grundy::Graph::load(text);
  ASSERT_EQ(g.tokens().size(), 1u);
  EXPECT_EQ(g.tokens()[0], 1u);
  const grundy::Answer a = grundy::solve(g, g.tokens(), {.loopy = true});
  EXPECT_EQ(a.verdict, grundy::Verdict::win);
  EXPECT_EQ(error_of([&] { grundy::Graph::load(dir.file("missing.txt")); }).find(dir.file("missing.txt")), 0u);
  const grundy::Graph gen = grundy::Graph::generate("kron", 4096, 40000, 3, 9);
  const grundy::OwnedGame want = grundy::generate({grundy::Shape::kron, 4096, 40000, 3, 9});
  EXPECT_TRUE(std::equal(gen.targets().begin(), gen.targets().end(), want.targets.begin()));
  EXPECT_EQ(error_of([&] { grundy::Graph::generate("round", 10, 10); }).find("unknown shape \"round\""), 0u);
  const std::string stream = dir.write("s.txt", "2 1 1\n1 2\n1\n2 2 1\n1 2\n2 1\n1\n1 0 1\n5\n");
  const std::vector<grundy::BatchResult> rs = grundy::batch({stream});
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].name, stream + "#1");
  EXPECT_EQ(rs[0].verdict, grundy::Verdict::win);
  ASSERT_TRUE(rs[0].move.has_value());
  EXPECT_EQ(rs[0].move->from, 0u);
  EXPECT_EQ(rs[0].move->to, 1u);
  EXPECT_FALSE(rs[1].verdict.has_value());
  EXPECT_NE(rs[1].error.find("cycle"), std::string::npos);
  EXPECT_FALSE(rs[2].verdict.has_value()) << "token 5 of a one-node graph";
  const std::vector<grundy::BatchResult> loopy = grundy::batch({stream}, {.loopy = true});
  EXPECT_EQ(loopy[1].verdict, grundy::Verdict::draw);
}

}  // namespace
