// The real `grundy` binary, as users run it: exit codes, stdout, stderr.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_process.hpp"

namespace grundy {
namespace {

using test_support::run_grundy;
using test_support::TempDir;

const std::string kSample = GRUNDY_SOURCE_DIR "/datasets/sample.txt";

// One line on stderr, starting "grundy: ", nothing on stdout, exit 1.
void expect_rejected(const test_support::ProcessResult& r, const std::string& fragment) {
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("grundy: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

TEST(Cli, SolvesTheSampleFromAFileAndFromStdin) {
  auto r = run_grundy({"solve", kSample});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "win\n");
  EXPECT_EQ(r.err, "");
  r = run_grundy({"solve"}, test_support::read_file(kSample));
  EXPECT_EQ(r.out, "win\n");
  r = run_grundy({"solve", "-"}, "2 1 2\n1 2\n1 1\n");
  EXPECT_EQ(r.out, "lose\n");
}

TEST(Cli, MoveAndSgValues) {
  auto r = run_grundy({"solve", kSample, "--move", "--sg-out", "-"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "win\nmove 1 1 4\n2\n0\n1\n1\n0\n0\n");
  r = run_grundy({"solve", "--move"}, "2 1 2\n1 2\n1 1\n");
  EXPECT_EQ(r.out, "lose\nmove none\n");
  TempDir dir;
  r = run_grundy({"solve", kSample, "--sg-out", dir.file("sg.txt")});
  EXPECT_EQ(r.out, "win\n");
  EXPECT_EQ(test_support::read_file(dir.file("sg.txt")), "2\n0\n1\n1\n0\n0\n");
}

TEST(Cli, EveryErrorClassIsOneLineAndExitOne) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "<stdin>:1: empty input"},
      {"3 3 1\n1 2\n2 3\n3 1\n1\n", "<stdin>: cycle: 1 -> 2 -> 3 -> 1"},
      {"3 1 1\n2 2\n1\n", "<stdin>:2: edge 1 is a self-loop: cycle: 2 -> 2"},
      {"3 1 1\n1 4\n1\n", "<stdin>:2: the target of edge 1: node id \"4\" is out of range 1..3"},
      {"3 1 1\n1 2\n0\n", "<stdin>:3: token 1: node id \"0\" is out of range 1..3"},
      {"3 1 1\n-1 2\n1\n", "negative number \"-1\""},
      {"3 1 1\n1 abc\n1\n", "found \"abc\""},
      {"3 1 1\n1 1.5\n1\n", "found \"1.5\""},
      {"3 1 1\n1 0x10\n1\n", "found \"0x10\""},
      {"3 1 1\n1 99999999999999999999\n1\n", "node id \"99999999999999999999\" is out of range"},
      {"99999999999999999999 1 1\n1 2\n1\n", "N (the node count) \"99999999999999999999\" is too large"},
      {"3 2 1\n1 2\n", "input ends after 1 of 2 edges"},
      {"3 1 2\n1 2\n1\n", "input ends after 1 of 2 tokens"},
      {"3 1 1\n1 2\n1 3\n", "<stdin>:3: unexpected \"3\" after the last of 1 tokens"},
      {"0 0 1\n", "K = 1 tokens, but the graph has no nodes (N = 0)"},
      {"5 4000000000 0\n1 2\n", "input ends after 1 of 4000000000 edges"},
  };
  for (const auto& [input, fragment] : cases) {
    SCOPED_TRACE(input);
    expect_rejected(run_grundy({"solve"}, input), fragment);
  }
}

TEST(Cli, FileErrorsNameTheFile) {
  expect_rejected(run_grundy({"solve", "/nonexistent/x.txt"}), "/nonexistent/x.txt: cannot open");
  TempDir dir;
  const std::string bad = dir.write("bad.txt", "2 1 1\n1 3\n1\n");
  expect_rejected(run_grundy({"solve", bad}), bad + ":2: the target of edge 1");
  expect_rejected(run_grundy({"solve", dir.path()}), "is a directory");
}

TEST(Cli, FailedSgOutputLeavesNoFileAndNoVerdict) {
  TempDir dir;
  expect_rejected(run_grundy({"solve", kSample, "--sg-out", dir.file("missing/sg.txt")}), "cannot create");
  // A bad input never creates the SG file, not even a partial one.
  expect_rejected(run_grundy({"solve", "--sg-out", dir.file("sg.txt")}, "2 1 1\n1 2\n"), "input ends");
  EXPECT_FALSE(std::filesystem::exists(dir.file("sg.txt")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator{}), 0);
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_grundy({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_grundy({"solve", "--threads", "0", kSample}).exit_code, 2);
  EXPECT_EQ(run_grundy({"solve", "--algo", "magic", kSample}).exit_code, 2);
  EXPECT_EQ(run_grundy({"solve", "--help"}).exit_code, 0);
}

TEST(Cli, MillionNodeChainThroughTheBinary) {
  TempDir dir;
  const std::string f = dir.file("chain.txt");
  auto r = run_grundy({"gen", "--shape", "chain", "--nodes", "1000000", "--tokens", "3", f});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_grundy({"solve", f, "--sg-out", dir.file("sg.txt")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out == "win\n" || r.out == "lose\n");
  const std::string sg = test_support::read_file(dir.file("sg.txt"));
  EXPECT_EQ(std::count(sg.begin(), sg.end(), '\n'), 1000000);
}

// A deep graph's renumbering is walked depth first where the walk's path
// fits the memory budget, and layered where only the layering does (at 60
// MiB, a 10^6-node chain's: 51 MB planned against the walk's 69), with the
// same values either way.
TEST(Cli, ADeepGraphsRenumberingIsWalkedWhereItsPathFitsTheBudget) {
  TempDir dir;
  const std::string f = dir.file("chain.gcsr");
  ASSERT_EQ(run_grundy({"gen", "--shape", "chain", "--nodes", "1000000", "--tokens", "3", f}).exit_code, 0);
  const auto walked =
      test_support::run_shell("$GRUNDY solve --stats -t 1 --sg-out " + dir.file("walked.txt") + " " + f);
  ASSERT_EQ(walked.exit_code, 0) << walked.err;
  EXPECT_NE(walked.err.find("locality order"), std::string::npos) << walked.err;
  EXPECT_NE(walked.err.find("dfs + mex"), std::string::npos) << walked.err;
  const auto layered = test_support::run_shell("GRUNDY_MEMORY_LIMIT=60M $GRUNDY solve --stats -t 1 --sg-out " +
                                               dir.file("layered.txt") + " " + f);
  ASSERT_EQ(layered.exit_code, 0) << layered.err;
  EXPECT_NE(layered.err.find("locality order"), std::string::npos) << layered.err;
  EXPECT_EQ(layered.err.find("dfs + mex"), std::string::npos) << layered.err;
  EXPECT_EQ(layered.out, walked.out);
  EXPECT_EQ(test_support::read_file(dir.file("layered.txt")), test_support::read_file(dir.file("walked.txt")));
}

TEST(Cli, EveryAlgorithmAndThreadCountGivesTheSameValues) {
  TempDir dir;
  const std::string f = dir.file("g.txt");
  ASSERT_EQ(run_grundy({"gen", "--nodes", "3000", "--edges", "20000", "--tokens", "7", f}).exit_code, 0);
  const auto want = run_grundy({"solve", f, "--algo", "serial", "--sg-out", "-", "--move"});
  ASSERT_EQ(want.exit_code, 0);
  for (const char* algo : {"auto", "level", "bgl"})
    for (const char* threads : {"1", "2", "3"}) {
      const auto r =
          run_grundy({"solve", f, "--algo", algo, "--threads", threads, "--sg-out", "-", "--move", "--verify"});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, want.out) << algo << " " << threads;
    }
}

TEST(Cli, VerifyCatchesAPlantedWrongValue) {
  const auto r = run_grundy({"solve", kSample, "--verify", "--plant-error", "2"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("verification failed (baseline): node 3 has SG 0, expected 1"), std::string::npos) << r.err;
}

TEST(Cli, GenIsDeterministic) {
  TempDir dir;
  for (const char* name : {"a.txt", "b.txt"})
    ASSERT_EQ(run_grundy({"gen", "--nodes", "500", "--edges", "3000", "--seed", "5", dir.file(name)}).exit_code, 0);
  EXPECT_EQ(test_support::read_file(dir.file("a.txt")), test_support::read_file(dir.file("b.txt")));
}

}  // namespace
}  // namespace grundy
