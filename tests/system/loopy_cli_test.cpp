// --loopy through the grundy binary: verdicts with draws, values and
// outcomes per node, moves, --verify, batch lines, the generators of
// digraphs with cycles, convert and info, and the errors around them.
#include <gtest/gtest.h>

#include "run_process.hpp"

namespace grundy {
namespace {

using test_support::read_file;
using test_support::run_grundy;
using test_support::TempDir;

// 1 <-> 2 -> 3: gamma = 0, 1, 0 (1's only move reaches value 1, which 2
// reverses to the sink 3).
const char* kBackAndForth = "3 3 1\n1 2\n2 1\n2 3\n1\n";

TEST(LoopyCli, VerdictsValuesOutcomesAndMoves) {
  auto r = run_grundy({"solve", "--loopy", "--move", "--sg-out", "-", "--outcome-out", "-"}, kBackAndForth);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "lose\nmove none\n0\n1\n0\nL\nW\nL\n");
  // From 2 the winning move goes to the sink, the successor of value 0 with the least counter.
  r = run_grundy({"solve", "--loopy", "--move", "-"}, "3 3 1\n1 2\n2 1\n2 3\n2\n");
  EXPECT_EQ(r.out, "win\nmove 1 2 3\n");
  // A 2-cycle alone: both infinite, K empty, a draw.
  r = run_grundy({"solve", "--loopy", "--move", "--sg-out", "-", "--outcome-out", "-", "-"}, "2 2 1\n1 2\n2 1\n1\n");
  EXPECT_EQ(r.out, "draw\nmove none\ninf:\ninf:\nD\nD\n");
  // A self-loop is a pass: 1 is infinity({0}), a win by moving to the sink.
  r = run_grundy({"solve", "--loopy", "--move", "--sg-out", "-", "-"}, "2 2 1\n1 1\n1 2\n1\n");
  EXPECT_EQ(r.out, "win\nmove 1 1 2\ninf:0\n0\n");
  // Two infinite tokens draw; one with the others' XOR in its K wins.
  EXPECT_EQ(run_grundy({"solve", "--loopy", "-"}, "2 2 2\n1 1\n1 2\n1 1\n").out, "draw\n");
  EXPECT_EQ(run_grundy({"solve", "--loopy", "--move", "-"}, "2 2 2\n1 1\n1 2\n1 2\n").out, "win\nmove 1 1 2\n");
  // The outcome-only analysis, for one token.
  r = run_grundy({"solve", "--loopy=outcome", "--move", "--outcome-out", "-", "-"}, "3 3 1\n1 2\n2 1\n2 3\n2\n");
  EXPECT_EQ(r.out, "win\nmove 1 2 3\nL\nW\nL\n");
}

TEST(LoopyCli, VerifyPassesAndCatchesAPlantedError) {
  TempDir dir;
  const std::string g = dir.file("g.txt");
  ASSERT_EQ(run_grundy({"gen", "-q", g, "--shape", "kron-digraph", "-n", "2000", "-m", "8000", "-k", "3"}).exit_code, 0);
  auto r = run_grundy({"solve", "--loopy", "--verify", g});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Verification:        PASS"), std::string::npos) << r.err;
  r = run_grundy({"solve", "--loopy=outcome", "--verify", g});
  EXPECT_EQ(r.exit_code, 1) << "three tokens: outcome mode decides one";
  r = run_grundy({"solve", "--loopy", "--verify", "--plant-error", "0"}, kBackAndForth);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("Verification:        FAIL"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("condition (A): node 1"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(LoopyCli, OnADagTheValuesAreTheSgValues) {
  TempDir dir;
  const std::string g = dir.file("dag.gcsr");
  ASSERT_EQ(run_grundy({"gen", "-q", g, "--shape", "powerlaw", "-n", "3000", "-m", "30000"}).exit_code, 0);
  const auto dag = run_grundy({"solve", g, "--sg-out", "-", "--move"});
  const auto loopy = run_grundy({"solve", "--loopy", g, "--sg-out", "-", "--move"});
  EXPECT_EQ(dag.exit_code, 0);
  EXPECT_EQ(loopy.out, dag.out);
}

TEST(LoopyCli, EveryThreadCountGivesTheSameValues) {
  TempDir dir;
  for (const char* shape : {"digraph", "kron-digraph", "grid", "subtraction"}) {
    const std::string g = dir.file(std::string(shape) + ".gcsr");
    ASSERT_EQ(run_grundy({"gen", "-q", g, "--shape", shape, "-n", "20000", "-m", "60000"}).exit_code, 0);
    const auto one = run_grundy({"solve", "--loopy", "--threads", "1", g, "--sg-out", "-", "--move"});
    ASSERT_EQ(one.exit_code, 0) << shape << one.err;
    for (const char* threads : {"2", "4"})
      EXPECT_EQ(run_grundy({"solve", "--loopy", "--threads", threads, g, "--sg-out", "-", "--move"}).out, one.out)
          << shape << " on " << threads << " threads";
  }
}

TEST(LoopyCli, CyclesWithoutLoopyStayErrorsThatPointAtIt) {
  auto r = run_grundy({"solve"}, kBackAndForth);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "grundy: <stdin>: cycle: 1 -> 2 -> 1 (a game with cycles: use --loopy)\n");
  r = run_grundy({"solve", "-"}, "2 2 1\n1 1\n1 2\n1\n");
  EXPECT_EQ(r.err, "grundy: <stdin>:2: edge 1 is a self-loop: cycle: 1 -> 1 (a game with cycles: use --loopy)\n");
  // Everything else that is an error stays one, with the same message.
  r = run_grundy({"solve", "--loopy", "-"}, "3 1 1\n1 4\n1\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("<stdin>:2: the target of edge 1: node id \"4\" is out of range 1..3"), std::string::npos);
  // Options that cannot mean anything with cycles are refused by name.
  EXPECT_EQ(run_grundy({"solve", "--loopy", "--sg-format", "u32", "--sg-out", "-", "-"}, kBackAndForth).exit_code, 2);
  EXPECT_EQ(run_grundy({"solve", "--loopy", "--algo", "serial", "-"}, kBackAndForth).exit_code, 2);
  EXPECT_EQ(run_grundy({"solve", "--outcome-out", "-", "-"}, kBackAndForth).exit_code, 2);
  EXPECT_EQ(run_grundy({"solve", "--loopy=maybe", "-"}, kBackAndForth).exit_code, 2);
}

TEST(LoopyCli, BatchSaysWinLoseOrDrawPerInstance) {
  const std::string stream = std::string(kBackAndForth) + "2 2 1\n1 2\n2 1\n1\n2 2 1\n1 1\n1 2\n1\n1 0 1\n1\n";
  auto r = run_grundy({"batch", "--loopy", "--move", "--verify", "-"}, stream);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "<stdin>#1\tlose\tmove none\n<stdin>#2\tdraw\tmove none\n<stdin>#3\twin\tmove 1 1 2\n"
            "<stdin>#4\tlose\tmove none\n");
  EXPECT_NE(r.err.find("1 win, 2 lose, 1 draw, 0 errors"), std::string::npos) << r.err;
  r = run_grundy({"batch", "--loopy", "--json", "-"}, stream);
  EXPECT_NE(r.out.find("\"verdict\": \"draw\", \"xor\": 0, \"n\": 2, \"m\": 2, \"k\": 1, \"depth\": null"),
            std::string::npos)
      << r.out;
  // Without --loopy the cyclic instances are errors that name --loopy, and the rest go on.
  r = run_grundy({"batch", "-"}, stream);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("<stdin>#2\terror\t<stdin>#2: cycle: 1 -> 2 -> 1 (a game with cycles: use --loopy)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("<stdin>#4\tlose"), std::string::npos);
}

TEST(LoopyCli, GenConvertAndInfoKeepCycles) {
  TempDir dir;
  const std::string text = dir.file("g.txt"), bin = dir.file("g.gcsr"), direct = dir.file("d.gcsr");
  ASSERT_EQ(run_grundy({"gen", "-q", text, "--shape", "grid", "-n", "400", "-m", "1600", "-k", "2"}).exit_code, 0);
  EXPECT_EQ(run_grundy({"convert", "-q", text, bin}).exit_code, 1) << "a .gcsr holds a DAG unless --loopy";
  ASSERT_EQ(run_grundy({"convert", "-q", "--loopy", text, bin}).exit_code, 0);
  ASSERT_EQ(run_grundy({"gen", "-q", direct, "--shape", "grid", "-n", "400", "-m", "1600", "-k", "2"}).exit_code, 0);
  EXPECT_EQ(read_file(bin), read_file(direct)) << "convert --loopy writes what gen writes";
  EXPECT_EQ(run_grundy({"solve", "--loopy", text, "--sg-out", "-"}).out,
            run_grundy({"solve", "--loopy", bin, "--sg-out", "-"}).out);
  EXPECT_EQ(run_grundy({"gen", "-q", dir.file("x.gcsr"), "--shape", "digraph", "--layered"}).exit_code, 2);
  const auto info = run_grundy({"info", "--loopy", "--json", bin});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("\"depth\": null"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"loopy\": {\"mode\": \"values\""), std::string::npos) << info.out;
  const auto text_info = run_grundy({"info", "--loopy", bin});
  EXPECT_NE(text_info.out.find("outcomes       "), std::string::npos) << text_info.out;
  // gen's bytes do not depend on the thread count, for the new shapes too.
  for (const char* shape : {"digraph", "kron-digraph", "subtraction"}) {
    const std::string a = dir.file("a.gcsr"), b = dir.file("b.gcsr");
    ASSERT_EQ(run_grundy({"gen", "-q", "--threads", "1", a, "--shape", shape, "-n", "5000", "-m", "20000"}).exit_code, 0);
    ASSERT_EQ(run_grundy({"gen", "-q", "--threads", "2", b, "--shape", shape, "-n", "5000", "-m", "20000"}).exit_code, 0);
    EXPECT_EQ(read_file(a), read_file(b)) << shape;
  }
}

TEST(LoopyCli, BenchRunsTheLoopyEngineOnEveryThreadCountAndChecksIt) {
  TempDir dir;
  const std::vector<std::string> base{"bench", "--loopy", "gen:kron-digraph,nodes=3000,edges=12000", "--cache",
                                      dir.file("cache"), "--trials", "2", "--threads", "1,2"};
  auto args = base;
  args.insert(args.end(), {"--out", dir.file("out")});
  auto r = run_grundy(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = read_file(dir.file("out/bench.json"));
  for (const char* field : {"\"algo\": \"loopy\"", "\"verified\": \"conditions\"", "\"stages\": ", "\"transpose\": "})
    EXPECT_NE(json.find(field), std::string::npos) << field;
  EXPECT_NE(r.err.find("[2/2] kron-digraph,nodes=3000,edges=12000, loopy, 2 threads: SG "), std::string::npos) << r.err;
  args = base;
  args.insert(args.end(), {"--out", dir.file("bad"), "--plant-error"});
  r = run_grundy(args);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("verification failed (reference values)"), std::string::npos) << r.err;
  // Without --loopy a graph with cycles is that input's error line.
  r = run_grundy({"bench", "gen:grid,nodes=500,edges=2000", "--cache", dir.file("cache"), "--out", dir.file("dag"),
                  "--trials", "1"});
  EXPECT_NE(r.err.find("(a game with cycles: use --loopy)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace grundy
