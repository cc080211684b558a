// What a new user trips over on the first day (issue 21), one test per
// item: defaults that must not surprise, messages that must say what to do,
// outputs that must not lie.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "expectations.hpp"
#include "run_process.hpp"

namespace grundy {
namespace {

using namespace test_support;  // the runner, the temporary folder, expect_refused

const std::string kSample = GRUNDY_SOURCE_DIR "/datasets/sample.txt";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t files_in(const std::string& dir) {
  return static_cast<std::size_t>(
      std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}));
}

// 1. A shape that fixes the edge count says so; the size is said and checked.
TEST(Usability, GenSaysWhatAShapeOverridesAndWhatItWrote) {
  TempDir dir;
  auto r = run_grundy({"gen", dir.file("t.gcsr"), "--shape", "tournament", "-n", "100", "-m", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "note: --shape tournament makes 4,950 edges")) << r.err;
  EXPECT_TRUE(has(r.err, "--edges 5 is not used")) << r.err;
  EXPECT_TRUE(has(r.err, "wrote " + dir.file("t.gcsr") + ": N 100, M 4,950, K 10, ")) << r.err;
  r = run_grundy({"gen", dir.file("c.txt"), "--shape", "chain", "-n", "100", "-m", "5", "--layers", "3"});
  EXPECT_TRUE(has(r.err, "makes 99 edges (a path through every node needs N-1)")) << r.err;
  EXPECT_TRUE(has(r.err, "--layers applies to --shape layered only")) << r.err;
  // Without -m given, nothing to say about it.
  r = run_grundy({"gen", dir.file("u.gcsr"), "-n", "100"});
  EXPECT_FALSE(has(r.err, "note:")) << r.err;
  r = run_grundy({"gen", "-q", dir.file("q.gcsr"), "--shape", "tournament", "-n", "100", "-m", "5"});
  EXPECT_EQ(r.err, "");
}

TEST(Usability, GenRefusesAnOutputPastItsLimitUnlessForced) {
  TempDir dir;
  // 560 TB planned: past half the free space of any disk this runs on.
  auto r = run_grundy({"gen", dir.file("huge.gcsr"), "-n", "1e9", "-m", "2^47"});
  expect_refused(r, "the output would be about ");
  EXPECT_TRUE(has(r.err, "free on")) << r.err;
  EXPECT_TRUE(has(r.err, "--force")) << r.err;
  r = run_grundy({"gen", dir.file("small.gcsr"), "-n", "1e5", "-m", "1e6", "--max-size", "1M"});
  expect_refused(r, "more than --max-size 977 KiB");
  EXPECT_EQ(files_in(dir.path()), 0u);
  r = run_grundy({"gen", dir.file("small.gcsr"), "-n", "1e5", "-m", "1e6", "--max-size", "1M", "--force", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(dir.file("small.gcsr")), 1000000u);
}

// 3. Every output is opened before the work: a bad path fails with stdout
// empty; no output may replace the input.
TEST(Usability, SolveOpensEveryOutputBeforeItWorks) {
  TempDir dir;
  // A folder that cannot exist (a file stands in its place), even for root.
  const std::string nowhere = dir.write("file", "") + "/out.json";
  for (const char* option : {"--profile", "--stats-json", "--sg-out"}) {
    const auto r = run_grundy({"solve", kSample, option, nowhere});
    expect_refused(r, nowhere);
  }
  expect_refused(run_grundy({"batch", kSample, "--profile", nowhere}), nowhere);
  expect_refused(run_grundy({"convert", kSample, nowhere}), "cannot write: " + dir.file("file") + " is not a folder");
  expect_refused(run_grundy({"gen", nowhere}), "cannot write: ");
  const std::string in = dir.write("in.txt", read_file(kSample));
  for (const char* option : {"--sg-out", "--profile", "--stats-json"}) {
    const auto r = run_grundy({"solve", in, option, in});
    expect_refused(r, "that is the input file");
    EXPECT_EQ(read_file(in), read_file(kSample));
  }
  const auto c = run_grundy({"convert", in, in});
  expect_refused(c, "is the input file", 2);
}

// 4. Counts: no sign, nothing past the type, shorthands.
TEST(Usability, CountsRefuseSignsAndOverflowAndTakeShorthands) {
  expect_refused(run_grundy({"gen", "-n", "-5", "x.gcsr"}), "--nodes: \"-5\" has a sign", 2);
  expect_refused(run_grundy({"gen", "-n", "2^70", "x.gcsr"}), "is past 2^64 - 1", 2);
  expect_refused(run_grundy({"solve", "-t", "99999999999", kSample}), "--threads: 99999999999 is not between 1 and", 2);
  expect_refused(run_grundy({"solve", "--trials", "+3", kSample}), "--trials: \"+3\" has a sign", 2);
  TempDir dir;
  for (const char* nodes : {"1e4", "10K", "10000"}) {
    const auto r = run_grundy({"gen", dir.file("g.gcsr"), "-n", nodes, "-m", "2^10"});
    EXPECT_TRUE(has(r.err, "N 10,000, M 1,024")) << nodes << ": " << r.err;
  }
}

// 5. batch's lines: names escaped, unknown fields null, the move an object.
TEST(Usability, BatchLinesStayParseableWhateverTheNames) {
  TempDir dir;
  const std::string odd = dir.write(std::string("a\tb\xff.txt"), read_file(kSample));
  const std::string bad = dir.write("bad.txt", "3 1 1\n1 9\n1\n");
  auto r = run_grundy({"batch", "-q", "--json", "--move", odd, bad});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), 2u) << r.out;
  for (const auto& line : got)
    for (const unsigned char c : line) ASSERT_TRUE(c >= 0x20 && c < 0x80) << "raw byte in a JSON line: " << line;
  EXPECT_TRUE(has(got[0], "\"path\": \"" + dir.path() + "/a\\u0009b\\ufffd.txt\"")) << got[0];
  EXPECT_TRUE(has(got[0], "\"path_hex\": \"")) << got[0];
  EXPECT_TRUE(has(got[0], "\"index\": 1, \"line\": 1, \"verdict\": \"win\", \"xor\": 3, \"n\": 6")) << got[0];
  EXPECT_TRUE(has(got[0], "\"move\": {\"token\": 1, \"from\": 1, \"to\": 4}")) << got[0];
  EXPECT_TRUE(has(got[1], "\"verdict\": \"error\", \"xor\": null")) << got[1];
  EXPECT_TRUE(has(got[1], "\"depth\": null")) << got[1];
  EXPECT_TRUE(has(got[1], "\"move\": null")) << got[1];
  EXPECT_TRUE(has(got[1], "\"error\": \"" + bad + ":2: the target of edge 1")) << got[1];
  // Text: a tab in a name is escaped, so a line keeps its columns.
  r = run_grundy({"batch", "-q", odd});
  EXPECT_EQ(r.out, dir.path() + "/a\\tb\xff.txt\twin\n");
}

// 6. Edge lists are edge lists everywhere; compressed input gets the way out.
TEST(Usability, EveryCommandReadsAnEdgeListTheSameWay) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("g.el"), "-n", "200", "-m", "900", "-k", "7"}).exit_code, 0);
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("g.txt"), "-n", "200", "-m", "900", "-k", "7"}).exit_code, 0);
  EXPECT_EQ(read_file(dir.file("g.el")).rfind("# nodes: 200\n# tokens: ", 0), 0u);
  const auto text = run_grundy({"solve", dir.file("g.txt"), "--sg-out", "-"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(run_grundy({"solve", dir.file("g.el"), "--sg-out", "-"}).out, text.out);
  ASSERT_EQ(run_grundy({"convert", "-q", dir.file("g.el"), dir.file("g.gcsr")}).exit_code, 0);
  EXPECT_EQ(run_grundy({"solve", dir.file("g.gcsr"), "--sg-out", "-"}).out, text.out);
  const auto info = run_grundy({"info", "--json", dir.file("g.el")});
  EXPECT_TRUE(has(info.out, "\"format\": \"el\", ")) << info.out;
  EXPECT_TRUE(has(info.out, "\"n\": 200, \"m\": 900, \"k\": 7")) << info.out;
  const auto batch = run_grundy({"batch", "-q", dir.file("g.el")});
  EXPECT_EQ(batch.out, dir.file("g.el") + "\t" + text.out.substr(0, text.out.find('\n')) + "\n");
  const std::string gz = dir.write("g.txt.gz", std::string("\x1f\x8b\x08\x00", 4) + "rest");
  expect_refused(run_grundy({"solve", gz}), "gzip-compressed data; unpack it first: zcat " + gz);
  expect_refused(run_grundy({"solve"}, std::string("\x28\xb5\x2f\xfd", 4) + "zz"),
                 "<stdin>: zstd-compressed data; unpack it first: zstdcat FILE | grundy solve -");
  const auto in_batch = run_grundy({"batch", "-q", gz});
  EXPECT_TRUE(has(in_batch.out, "\terror\t" + gz + ": gzip-compressed")) << in_batch.out;
}

// 7. The first things a user types.
TEST(Usability, NoArgumentsHelpAndMistypedCommands) {
  auto r = run_grundy({});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r.out, "Usage: grundy [OPTIONS] SUBCOMMAND")) << r.out;
  for (const char* c : {"solve", "batch", "bench", "convert", "gen", "info"}) EXPECT_TRUE(has(r.out, c)) << c;
  r = run_grundy({"solv"});
  expect_refused(r, "unknown command \"solv\"; did you mean \"solve\"?", 2);
  r = run_grundy({"bnech"});
  EXPECT_TRUE(has(r.err, "did you mean \"bench\"?")) << r.err;
  r = run_grundy({"frobnicate"});
  expect_refused(r, "unknown command \"frobnicate\" (commands: solve, batch", 2);
  r = run_grundy({"help", "solve"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r.out, "Usage: grundy solve [OPTIONS] [input]")) << r.out;
  EXPECT_EQ(r.out, run_grundy({"solve", "--help"}).out);
  expect_refused(run_grundy({"help", "solv"}), "did you mean \"solve\"?", 2);
  expect_refused(run_grundy({"solve", "--frob", kSample}), "grundy: solve: ", 2);
  expect_refused(run_grundy({"solve", "-t", "abc", kSample}), "grundy: solve: --threads: \"abc\" is not a count", 2);
  EXPECT_FALSE(has(run_grundy({"solve", "-t", "abc", kSample}).err, "range"));
}

// 8. What the binary is.
TEST(Usability, VersionNamesTheBuildAndTheLibraries) {
  auto r = run_grundy({"-V"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("grundy 0.", 0), 0u) << r.out;
  for (const char* line : {"\ncommit    ", "\nbuild     ", ", -march=", "\ncompiler  ", "\noneTBB    ", "\nBoost     "})
    EXPECT_TRUE(has(r.out, line)) << line << " in " << r.out;
  EXPECT_EQ(run_grundy({"--version"}).out, r.out);
  r = run_grundy({"--version", "--json"});
  ASSERT_EQ(r.exit_code, 0);
  for (const char* key : {"{\"schema\": 1, \"grundy\": ", "\"commit\": ", "\"build\": ", "\"march\": ",
                          "\"compiler\": ", "\"onetbb\": ", "\"boost\": ", "\"cli11\": "})
    EXPECT_TRUE(has(r.out, key)) << key << " in " << r.out;
  EXPECT_FALSE(has(r.out, "\"commit\": \"unknown\"")) << "built from a checkout: " << r.out;
}

// 9. One option surface, and help that says N and lists what it takes.
TEST(Usability, TheSameOptionsWhereverTheyMakeSense) {
  const std::vector<std::vector<std::string>> have = {
      {"solve", "-t,--threads", "-q,--quiet", "--algo", "--verify", "--stats", "--profile"},
      {"batch", "-t,--threads", "-q,--quiet", "--algo", "--verify", "--profile"},
      {"bench", "-t,--threads", "-q,--quiet", "--algos", "--profile"},
      {"gen", "-t,--threads", "-q,--quiet"},
      {"convert", "-t,--threads", "-q,--quiet"},
      {"info", "-t,--threads", "-q,--quiet"}};
  for (const auto& c : have) {
    const auto help = run_grundy({c[0], "--help"}).out;
    for (std::size_t i = 1; i < c.size(); ++i) EXPECT_TRUE(has(help, c[i])) << c[0] << " lacks " << c[i];
    for (const char* raw : {"UINT", "INT in", "FLOAT", "TEXT", ":N"})
      EXPECT_FALSE(has(help, raw)) << c[0] << "'s help shows " << raw << ":\n" << help;
  }
  const auto bench = run_grundy({"bench", "--help"}).out;
  EXPECT_TRUE(has(bench, "{auto,level,serial,bgl}=level,serial,bgl")) << bench;
  EXPECT_TRUE(has(bench, "=small")) << bench;
  expect_refused(run_grundy({"gen", "x.gcsr", "--shape", "tourney"}), "--shape: tourney not in", 2);
  const auto gen = run_grundy({"gen", "--help"}).out;
  EXPECT_TRUE(has(gen, "{uniform,layered,chain,powerlaw,tournament,kron,digraph,kron-digraph,grid,subtraction}=uniform"))
      << gen;
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("s.txt"), "-n", "40", "-m", "120", "--instances", "30"}).exit_code, 0);
  const auto level = run_grundy({"batch", "-q", dir.file("s.txt")});
  for (const char* algo : {"serial", "bgl"})
    EXPECT_EQ(run_grundy({"batch", "-q", "--algo", algo, dir.file("s.txt")}).out, level.out) << algo;
  EXPECT_EQ(run_grundy({"info", "-q", kSample}).err, "");
  EXPECT_EQ(run_grundy({"solve", "-q", "-t", "8", kSample}).err, "") << "-q drops the threads note";
}

// 10. Progress on a terminal: counts, a rate, an ETA only with a total.
TEST(Usability, ProgressLinesOnATerminal) {
  if (std::system("command -v script > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  if (std::system("script -qc true /dev/null > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "script(1) gets no pseudo-terminal here (no /dev/pts)";
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("s.txt"), "-n", "300", "-m", "1500", "--instances", "500"}).exit_code,
            0);
  const std::string quiet_out = " > /dev/null\" /dev/null";
  auto r = run_shell("script -qc \"$GRUNDY batch --threads 1 '" + dir.file("s.txt") + "'" + quiet_out);
  EXPECT_TRUE(has(r.out, "batch ") && has(r.out, "% · ")) << r.out;
  EXPECT_TRUE(has(r.out, " instances · 0 errors · ") && has(r.out, "B/s · ETA ")) << r.out;
  r = run_shell("script -qc \"cat '" + dir.file("s.txt") + "' | $GRUNDY batch --threads 1 -" + quiet_out);
  EXPECT_TRUE(has(r.out, "batch · ")) << r.out;
  EXPECT_FALSE(has(r.out, "%")) << "no share of an unknown total: " << r.out;
  EXPECT_FALSE(has(r.out, "ETA")) << r.out;
  // 82 MB of text: past the 64 MiB from which solve draws its phase line.
  r = run_shell("script -qc \"$GRUNDY gen '" + dir.file("big.txt") + "' -n 1000000 -m 6000000\" /dev/null");
  EXPECT_TRUE(has(r.out, "gen: uniform: N 1,000,000, M 6,000,000, K 10 -> ")) << "the plan: " << r.out;
  EXPECT_TRUE(has(r.out, " of 6,000,000 edges · ")) << r.out;
  EXPECT_TRUE(has(r.out, "wrote " + dir.file("big.txt"))) << r.out;
  r = run_shell("script -qc \"$GRUNDY solve '" + dir.file("big.txt") + "'\" /dev/null");
  // Each phase is drawn as it starts, however short (the first as the file is mapped).
  EXPECT_TRUE(has(r.out, "solve · 79 MiB · ") && (has(r.out, " · map input · ") || has(r.out, " · parse · "))) << r.out;
  r = run_shell("script -qc \"timeout 1 $GRUNDY solve\" /dev/null < /dev/null");
  EXPECT_TRUE(has(r.out, "reading an instance from standard input")) << r.out;
  r = run_shell("script -qc \"$GRUNDY batch -q --threads 1 '" + dir.file("s.txt") + "'" + quiet_out);
  EXPECT_FALSE(has(r.out, "batch ")) << "-q: " << r.out;
}

// 11. --verify says what it checked; an empty folder is not silence.
TEST(Usability, VerifySaysWhatItCheckedAndEmptyFoldersWarn) {
  TempDir dir;
  auto r = run_grundy({"solve", kSample, "--verify"});
  EXPECT_EQ(r.out, "win\n");
  EXPECT_EQ(r.err, "Verification:        PASS (verified: Boost.Graph baseline + mex rule, 6 nodes, 8 edges)\n");
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("s.txt"), "-n", "40", "-m", "120", "--instances", "5"}).exit_code, 0);
  r = run_grundy({"batch", "--verify", dir.file("s.txt")});
  EXPECT_TRUE(has(r.err, "; verified: Boost.Graph baseline + mex rule, 5 instances, 200 nodes in ")) << r.err;
  std::filesystem::create_directory(dir.file("empty"));
  r = run_grundy({"batch", dir.file("empty"), dir.file("s.txt")});
  EXPECT_TRUE(has(r.err, "warning: " + dir.file("empty") + " holds no instance files")) << r.err;
}

// 12. info: the verdict, sources, in-degrees; JSON keys without spaces.
TEST(Usability, InfoGivesTheVerdictAndDocumentedKeys) {
  auto r = run_grundy({"info", kSample});
  EXPECT_TRUE(has(r.out, "verdict        win (xor of the tokens' SG values: 3)")) << r.out;
  EXPECT_TRUE(has(r.out, "sources        1 nodes") && has(r.out, "in-degree      max 3")) << r.out;
  r = run_grundy({"info", "--json", kSample});
  EXPECT_EQ(r.out.rfind("{\"schema\": 2, ", 0), 0u) << r.out;
  EXPECT_TRUE(has(r.out, "\"verdict\": \"win\", \"xor\": 3")) << r.out;
  EXPECT_TRUE(has(r.out, "\"map_input\": ")) << r.out;
  // Every key of every JSON line grundy prints is in docs/OUTPUTS.md.
  const std::string doc = read_file(GRUNDY_SOURCE_DIR "/docs/OUTPUTS.md");
  TempDir dir;
  const std::string outputs =
      r.out + run_grundy({"batch", "-q", "--json", "--move", kSample}).out + run_grundy({"--version", "--json"}).out;
  for (std::size_t at = 0; (at = outputs.find("\"", at)) != std::string::npos;) {
    const std::size_t end = outputs.find('"', at + 1);
    const std::string token = outputs.substr(at, end - at + 1);
    at = end + 1;
    if (outputs.compare(at, 2, ": ") == 0) {
      std::string key = "`";
      key.append(token, 1, token.size() - 2);
      key.push_back('`');
      EXPECT_TRUE(has(doc, key) || has(doc, token)) << token << " is not in docs/OUTPUTS.md";
    }
  }
}

// 13. convert exports, un-layers, and reads SNAP's comments.
TEST(Usability, ConvertExportsTextAndEdgeListsInTheUsersIds) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("g.txt"), "-n", "300", "-m", "1200", "-k", "9"}).exit_code, 0);
  ASSERT_EQ(run_grundy({"convert", "-q", "--layered", dir.file("g.txt"), dir.file("l.gcsr")}).exit_code, 0);
  ASSERT_EQ(run_grundy({"convert", "-q", dir.file("l.gcsr"), dir.file("back.txt")}).exit_code, 0);
  ASSERT_EQ(run_grundy({"convert", "-q", dir.file("l.gcsr"), dir.file("back.el")}).exit_code, 0);
  // The same game in the same ids: the same SG value at every node.
  const auto want = run_grundy({"solve", dir.file("g.txt"), "--sg-out", "-"}).out;
  EXPECT_EQ(run_grundy({"solve", dir.file("back.txt"), "--sg-out", "-"}).out, want);
  EXPECT_EQ(run_grundy({"solve", dir.file("back.el"), "--sg-out", "-"}).out, want);
  auto sorted = [](std::string text) {
    auto l = lines(text);
    std::sort(l.begin() + 1, l.end() - 1);  // the edges, between the header and the tokens
    return l;
  };
  EXPECT_EQ(sorted(read_file(dir.file("back.txt"))), sorted(read_file(dir.file("g.txt"))));
  EXPECT_EQ(run_grundy({"convert", "-q", dir.file("l.gcsr"), "-"}).out, read_file(dir.file("back.txt")));
  const std::string snap = dir.write("snap.el",
                                     "# Directed graph (each unordered pair of nodes is saved once)\n"
                                     "# Nodes: 4 Edges: 3\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t3\n");
  ASSERT_EQ(run_grundy({"convert", "-q", snap, dir.file("snap.gcsr"), "--tokens", "0,1"}).exit_code, 0);
  EXPECT_EQ(run_grundy({"solve", dir.file("snap.gcsr"), "--sg-out", "-"}).out, "win\n1\n0\n1\n0\n");
  expect_refused(run_grundy({"convert", snap, dir.file("x.txt"), "--layered"}), "--layered needs a .gcsr output", 2);
}

// 14. SG values in binary, for graphs of 10^8 nodes.
TEST(Usability, SgValuesAsNpyAndRawBinary) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("g.gcsr"), "--layered", "-n", "500", "-m", "3000"}).exit_code, 0);
  const auto text = lines(run_grundy({"solve", dir.file("g.gcsr"), "--sg-out", "-"}).out);
  ASSERT_EQ(text.size(), 501u);
  ASSERT_EQ(run_grundy({"solve", dir.file("g.gcsr"), "--sg-out", dir.file("sg.npy")}).exit_code, 0);
  const std::string npy = read_file(dir.file("sg.npy"));
  ASSERT_EQ(npy.rfind("\x93NUMPY\x01", 0), 0u);
  const std::size_t header = 10 + static_cast<unsigned char>(npy[8]) + 256 * static_cast<unsigned char>(npy[9]);
  EXPECT_EQ(header % 64, 0u);
  EXPECT_TRUE(has(npy.substr(0, header), "{'descr': '<u2', 'fortran_order': False, 'shape': (500,), }"));
  ASSERT_EQ(npy.size(), header + 2 * 500);
  ASSERT_EQ(run_grundy({"solve", dir.file("g.gcsr"), "--sg-out", dir.file("sg.u32"), "--sg-format", "u32"}).exit_code,
            0);
  const std::string raw = read_file(dir.file("sg.u32"));
  ASSERT_EQ(raw.size(), 4u * 500);
  for (std::size_t u = 0; u < 500; ++u) {
    std::uint16_t narrow;
    std::uint32_t wide;
    std::memcpy(&narrow, npy.data() + header + 2 * u, 2);
    std::memcpy(&wide, raw.data() + 4 * u, 4);
    EXPECT_EQ(std::to_string(narrow), text[u + 1]) << u;
    EXPECT_EQ(std::to_string(wide), text[u + 1]) << u;
  }
  expect_refused(run_grundy({"solve", kSample, "--sg-format", "u8", "--sg-out", "x"}), "--sg-format", 2);
}

// 15. A memory limit that is not a size is an error; sizes in fitting units.
TEST(Usability, MemoryLimitIsCheckedAndSaidInFittingUnits) {
  expect_refused(run_shell("GRUNDY_MEMORY_LIMIT=abc \"$GRUNDY\" solve '" + kSample + "'"),
                 "GRUNDY_MEMORY_LIMIT: \"abc\" is not a memory size");
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", dir.file("g.txt"), "-n", "1e5", "-m", "1e5"}).exit_code, 0);
  const auto r = run_shell("GRUNDY_MEMORY_LIMIT=1K \"$GRUNDY\" solve '" + dir.file("g.txt") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "more than the 1.0 KiB of memory")) << r.err;
  EXPECT_FALSE(has(r.err, "0.0 GiB")) << r.err;
}

// 16. The man page and completions come from the CLI's own definitions.
TEST(Usability, ManPageAndCompletionsCoverEveryCommand) {
  const auto man = run_grundy({"help", "--man"});
  ASSERT_EQ(man.exit_code, 0);
  EXPECT_EQ(man.out.rfind(".TH GRUNDY 1 ", 0), 0u);
  for (const char* part : {".SS \"grundy solve\"", ".SS \"grundy bench compare\"", "\\-\\-sg\\-format", "\\-\\-stream",
                           ".SH EXIT STATUS", "GRUNDY_MEMORY_LIMIT"})
    EXPECT_EQ(has(man.out, part), std::strcmp(part, "\\-\\-stream") != 0) << part;  // hidden options stay hidden
  TempDir dir;
  const std::string bash = dir.write("grundy.bash", run_grundy({"help", "--completion", "bash"}).out);
  const auto complete = [&](const std::string& words, int cword) {
    return run_shell("bash -c 'source \"" + bash + "\"; COMP_WORDS=(" + words +
                     "); COMP_CWORD=" + std::to_string(cword) + "; _grundy; echo \"${COMPREPLY[*]}\"'")
        .out;
  };
  EXPECT_EQ(complete("grundy sol", 1), "solve\n");
  EXPECT_EQ(complete("grundy solve --algo s", 3), "serial\n");
  EXPECT_EQ(complete("grundy gen --sha", 2), "--shape\n");
  EXPECT_EQ(complete("grundy bench compare --fa", 3), "--fail-above\n");
  if (std::system("command -v zsh > /dev/null 2>&1") == 0) {
    const std::string zsh = dir.write("_grundy", run_grundy({"help", "--completion", "zsh"}).out);
    EXPECT_EQ(run_shell("zsh -n '" + zsh + "' && echo ok").out, "ok\n");
  }
}

}  // namespace
}  // namespace grundy
