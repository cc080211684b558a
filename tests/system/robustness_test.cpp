// Hostile and unlucky inputs, through the real binary: every one a clear
// error (or a right answer), never a crash, a hang, a wrong verdict or a
// giant allocation.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <thread>

#include "expectations.hpp"
#include "run_process.hpp"
#include "sanitized.hpp"

namespace grundy {
namespace {

using test_support::expect_refused;
using test_support::lines;
using test_support::read_file;
using test_support::run_grundy;
using test_support::run_shell;
using test_support::TempDir;

TEST(Robustness, AStreamInstanceCutShortNeverShiftsTheOthersVerdicts) {
  // The issue's case: #1 lacks its last token, so counting alone would take
  // #2's N as that token and shift every later instance.
  TempDir dir;
  const std::string s = dir.write("s.txt",
                                  "3 2 2\n1 2\n2 3\n1\n"         // #1: one of two tokens
                                  "2 1 1\n1 2\n1\n"              // #2: win
                                  "3 2 1\n1 2\n2 3\n2\n"         // #3: win
                                  "2 1 2\n1 2\n1 1\n"            // #4: lose
                                  "4 3 1\n1 2\n2 3\n3 4\n1\n");  // #5: win
  const auto r = run_grundy({"batch", "-q", s});
  EXPECT_EQ(r.exit_code, 1);
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), 5u) << r.out;
  EXPECT_EQ(got[0].rfind(s + "#1\terror\t" + s + ":4: input ends after 1 of 2 tokens", 0), 0u) << got[0];
  EXPECT_EQ(got[1], s + "#2\twin");
  EXPECT_EQ(got[2], s + "#3\twin");
  EXPECT_EQ(got[3], s + "#4\tlose");
  EXPECT_EQ(got[4], s + "#5\twin");
}

TEST(Robustness, AStreamWhoseFirstInstanceIsDamagedIsStillReadLineByLine) {
  // #1's header runs on into its first edge: the first line alone does not
  // say how the stream is laid, the lines after it do.
  TempDir dir;
  std::string text = "3 2 1 1 2\n2 3\n1\n";                 // #1: lose, laid oddly but whole
  for (int i = 0; i < 6; ++i) text += "2 1 2\n1 2\n1 1\n";  // #2..#7: lose
  text += "3 2 2\n1 2\n2 3\n1\n";                           // #8: one of two tokens
  text += "2 1 1\n1 2\n1\n";                                // #9: win
  const std::string s = dir.write("s.txt", text);
  const auto got = lines(run_grundy({"batch", "-q", s}).out);
  ASSERT_EQ(got.size(), 9u);
  EXPECT_EQ(got[0], s + "#1\tlose");
  for (int i = 1; i < 7; ++i) EXPECT_EQ(got[i], s + "#" + std::to_string(i + 1) + "\tlose");
  EXPECT_EQ(got[7].rfind(s + "#8\terror\t", 0), 0u) << got[7];
  EXPECT_EQ(got[8], s + "#9\twin");
}

TEST(Robustness, AHeaderCutFromItsBodyLosesTheCountRatherThanGuessingIt) {
  // "3 3 3" alone could be #1's tokens (its header promising none) or #2's
  // header with its body lost: the instances after it are then named by
  // their line, never by a number that may be wrong.
  TempDir dir;
  const std::string s = dir.write("s.txt",
                                  "3 2 0\n1 2\n2 3\n"  // #1
                                  "3 3 3\n"            // #1's tokens, or #2 cut to its header
                                  "2 1 1\n1 2\n1\n"    // #2 or #3: win
                                  "2 1 2\n1 2\n1 1\n");
  const auto r = run_grundy({"batch", "-q", s});
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), 3u) << r.out;
  EXPECT_EQ(got[0].rfind(s + "#1\terror\t", 0), 0u) << got[0];
  EXPECT_NE(got[0].find("named by the line of their header"), std::string::npos) << got[0];
  EXPECT_EQ(got[1], s + ":5\twin");
  EXPECT_EQ(got[2], s + ":8\tlose");
}

TEST(Robustness, GenRefusesSizesThatOverflowInsteadOfCrashing) {
  TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-n", "10", "-m", "20", "-k", "-1", dir.file("y.gcsr")},
        {"-n", "10", "-m", "18446744073709551615", dir.file("y.gcsr")},
        {"-n", "10", "-m", "4611686018427387904", dir.file("y.gcsr")},
        {"-n", "10", "-k", "4611686018427387904", dir.file("y.gcsr")},
        {"-n", "-5", dir.file("y.txt")},
        {"-k", "-1", dir.file("x.txt")},
        {"--instances", "0", dir.file("x.txt")},
        {"-n", "99999999999999999999", dir.file("x.txt")}}) {
    std::vector<std::string> full = {"gen"};
    full.insert(full.end(), args.begin(), args.end());
    const auto r = run_grundy(full);
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.exit_code, 2) << ::testing::PrintToString(args) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.find("e+"), std::string::npos) << "no 300-digit ranges: " << r.err;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  // The shorthands give plain counts.
  ASSERT_EQ(run_grundy({"gen", "-n", "1e3", "-m", "2^12", "-k", "1K", dir.file("ok.txt")}).exit_code, 0);
  EXPECT_EQ(read_file(dir.file("ok.txt")).rfind("1000 4096 1000\n", 0), 0u);
  // Past the memory budget: refused before anything is allocated or written.
  const auto big = run_shell("GRUNDY_MEMORY_LIMIT=100M $GRUNDY gen -n 100000000 -m 1000 " + dir.file("big.txt"));
  expect_refused(big, "more than the 100 MiB of memory this process may use");
  EXPECT_FALSE(std::filesystem::exists(dir.file("big.txt")));
}

TEST(Robustness, ThreadCountsAreCappedAndCountsHaveNoSign) {
  const std::string sample = GRUNDY_SOURCE_DIR "/datasets/sample.txt";
  for (const char* t : {"4096", "0", "-2", "abc"}) {
    const auto r = run_grundy({"solve", sample, "--threads", t});
    EXPECT_EQ(r.exit_code, 2) << t;
    EXPECT_EQ(r.err.rfind("grundy: solve: --threads", 0), 0u) << r.err;
  }
  const unsigned over = std::thread::hardware_concurrency() + 1;
  const auto r = run_grundy({"solve", sample, "--threads", std::to_string(over)});
  EXPECT_EQ(r.out, "win\n");
  EXPECT_NE(r.err.find("threads past the cores take turns"), std::string::npos) << r.err;
}

TEST(Robustness, FolderEntriesThatCannotBeReadAreErrorLines) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("d/sub"));
  dir.write("d/a.txt", "2 1 1\n1 2\n1\n");
  dir.write("d/sub/b.txt", "1 0 1\n1\n");
  std::filesystem::create_symlink(dir.file("nowhere.txt"), dir.file("d/c.txt"));
  const auto r = run_grundy({"batch", "-q", dir.file("d")});
  EXPECT_EQ(r.exit_code, 1);
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), 3u) << r.out;
  EXPECT_EQ(got[0], dir.file("d/a.txt") + "\twin");
  EXPECT_EQ(got[1].rfind(dir.file("d/c.txt") + "\terror\t", 0), 0u) << got[1];
  EXPECT_NE(got[1].find("dangling"), std::string::npos) << got[1];
  EXPECT_EQ(got[2], dir.file("d/sub/b.txt") + "\tlose");
  // An unreadable folder, as a user without the right to read it.
  if (run_shell("command -v setpriv").exit_code == 0 && ::geteuid() == 0) {
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    std::filesystem::permissions(dir.file("d"), std::filesystem::perms::all);
    std::filesystem::permissions(dir.file("d/sub"), std::filesystem::perms::none);
    const auto u = run_shell("setpriv --reuid=65534 --regid=65534 --clear-groups $GRUNDY batch -q " + dir.file("d"));
    std::filesystem::permissions(dir.file("d/sub"), std::filesystem::perms::all);
    EXPECT_EQ(u.exit_code, 1) << u.err;
    EXPECT_NE(u.out.find(dir.file("d/sub") + "\terror\t" + dir.file("d/sub") + ": cannot read folder"),
              std::string::npos)
        << u.out;
  }
}

TEST(Robustness, MoreFilesThanTheKernelAllowsMappingsAtOnce) {
  // The map count limit is 65,530: files are unmapped as their instances finish.
  // The limit is the kernel's, the same in every build; 66,000 instances
  // under a sanitizer take minutes (docs/TUNING.md#ci-time).
  if (test_support::kSanitized) GTEST_SKIP() << "the Release build checks the kernel's mapping limit";
  TempDir dir;
  std::filesystem::create_directories(dir.file("many"));
  constexpr int kFiles = 66000;
  for (int i = 0; i < kFiles; ++i) {
    std::ofstream(dir.file("many/" + std::to_string(100000 + i) + ".txt")) << "2 1 1\n1 2\n" << 1 + i % 2 << "\n";
  }
  const auto r = run_shell("$GRUNDY batch -q " + dir.file("many") + " | cut -f2 | sort | uniq -c | sed 's/^ *//'");
  EXPECT_EQ(r.out.substr(0, 200), "33000 lose\n33000 win\n") << r.err.substr(0, 500);
}

TEST(Robustness, EndlessAndBinaryInputsFailOnTheirFirstBlock) {
  for (const char* cmd : {"timeout 10 $GRUNDY solve /dev/zero", "head -c 100000 /dev/urandom | $GRUNDY solve -",
                          "timeout 10 $GRUNDY batch /dev/zero"}) {
    const auto r = run_shell(cmd);
    EXPECT_NE(r.exit_code, 124) << cmd << ": hung";
    EXPECT_NE((r.err + r.out).find("not a text instance"), std::string::npos) << cmd << r.err;
  }
  // A stream that goes on and on stops at the memory budget.
  const auto y = run_shell("yes 1 | GRUNDY_MEMORY_LIMIT=64M timeout 20 $GRUNDY solve");
  EXPECT_EQ(y.exit_code, 1) << y.err;
  EXPECT_NE(y.err.find("the input goes on"), std::string::npos) << y.err;
  // A pipe costs about what mapping the same file does, not three times its
  // size: peaks the Release build alone can compare.
  if (test_support::kSanitized) return;
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "1000000", "-m", "10000000", dir.file("g.txt")}).exit_code, 0);
  const auto size = static_cast<double>(std::filesystem::file_size(dir.file("g.txt")));
  const auto peak = [&](const std::string& feed) {
    const auto t = run_shell(feed + " /usr/bin/time -f %M $GRUNDY solve --threads 1 2>&1 >/dev/null");
    EXPECT_EQ(t.exit_code, 0) << t.out << t.err;
    return std::stod(t.out) * 1024;
  };
  const double piped = peak("cat " + dir.file("g.txt") + " |"), mapped = peak("< " + dir.file("g.txt"));
  EXPECT_LT(piped, mapped + 0.5 * size) << "piped " << piped << ", mapped " << mapped << ", " << size << " bytes";
}

TEST(Robustness, TheMemoryBudgetCoversEveryEntryPoint) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "10000000", "-m", "1000", dir.file("sparse.gcsr")}).exit_code, 0);
  expect_refused(run_shell("GRUNDY_MEMORY_LIMIT=100M $GRUNDY solve " + dir.file("sparse.gcsr")),
                 "of memory this process may use");
  const std::string el = dir.write("x.el", "0 200000000\n");
  expect_refused(run_shell("GRUNDY_MEMORY_LIMIT=100M $GRUNDY convert " + el + " " + dir.file("x.gcsr")),
                 "N = 200000001 nodes (one past the largest id)");
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.gcsr")));
  // The engine chosen counts: the baseline and --verify take more than the level engine.
  ASSERT_EQ(run_grundy({"gen", "-n", "5000000", "-m", "1000", dir.file("s.txt")}).exit_code, 0);
  EXPECT_EQ(run_shell("GRUNDY_MEMORY_LIMIT=120M $GRUNDY solve " + dir.file("s.txt")).exit_code, 0);
  expect_refused(run_shell("GRUNDY_MEMORY_LIMIT=120M $GRUNDY solve --verify " + dir.file("s.txt")), "--verify needs");
  for (const char* bad : {"abc", "1X", "0", "-5"})
    expect_refused(run_shell(std::string("GRUNDY_MEMORY_LIMIT=") + bad +
                             " $GRUNDY solve " GRUNDY_SOURCE_DIR "/datasets/sample.txt"),
                   "GRUNDY_MEMORY_LIMIT");
}

TEST(Robustness, SmallEdgesOfTheSurface) {
  TempDir dir;
  const std::string sample = GRUNDY_SOURCE_DIR "/datasets/sample.txt";
  // Leading zeros make no id too long.
  EXPECT_EQ(run_grundy({"solve"}, "3 2 1\n0000000000001 2\n2 000000000003\n00000000000001\n").out, "lose\n");
  // Empty paths are named as such.
  expect_refused(run_grundy({"solve", ""}), "an input path is empty");
  expect_refused(run_grundy({"gen", ""}), "an output path is empty");
  // A full stdout is an error, for info as for every command.
  EXPECT_EQ(run_shell("$GRUNDY info " + sample + " > /dev/full").exit_code, 1);
  // A file-size limit on stdout is a write error, not SIGXFSZ.
  ASSERT_EQ(run_grundy({"gen", "-n", "100000", "-m", "10", dir.file("g.txt")}).exit_code, 0);
  const auto x = run_shell("ulimit -f 16; $GRUNDY solve " + dir.file("g.txt") + " --sg-out - > " + dir.file("o.txt"));
  EXPECT_EQ(x.signal, 0);
  EXPECT_EQ(x.exit_code, 1) << x.err;
  // convert keeps cycles out of .gcsr files; an empty edge list says why a token has no node.
  expect_refused(run_grundy({"convert", dir.write("c.el", "1 2\n2 1\n"), dir.file("c.gcsr")}), "cycle: ");
  EXPECT_FALSE(std::filesystem::exists(dir.file("c.gcsr")));
  expect_refused(run_grundy({"convert", dir.write("e.el", ""), dir.file("e.gcsr"), "--tokens", "1"}),
                 "the edge list has no edges, so the graph has no nodes");
  // Old Mac line ends (CR alone) still number the lines.
  expect_refused(run_grundy({"solve"}, "3 1 1\r1 4\r1\r"), "<stdin>:2: the target of edge 1");
  // bench checks its report folder before it runs anything.
  expect_refused(run_grundy({"bench", "--out", dir.write("f", ""), "--sizes", "small"}), "--out names a file");
  const std::string manifest =
      dir.write("m.tsv", "a\tsmall\tuniform\t100\t400\t1\t1\t8\tno\na\tsmall\tchain\t100\t400\t1\t1\t8\tno\n");
  expect_refused(run_grundy({"bench", "--manifest", manifest, "--out", dir.file("r")}), "is named twice");
  const std::string huge = dir.write("h.tsv", "h\tsmall\tuniform\t10\t18446744073709551615\t1\t1\t8\tno\n");
  expect_refused(run_grundy({"bench", "--manifest", huge, "--out", dir.file("r")}), "h.tsv:1: --edges");
}

}  // namespace
}  // namespace grundy
