// The .gcsr format through the binary: convert, solve, gen, info, and
// corrupt files (tests/unit/gcsr_test.cpp has the reader and writer alone).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/formats/degree_runs.hpp"
#include "grundy/solve/renumber.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "run_process.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::read_file;
using test_support::run_grundy;
using test_support::TempDir;

TEST(GcsrCli, ConvertAddsDegreeRunsToAnOlderLayeredFile) {
  // A layered file from before the runs (a fuzz seed written then) solves
  // the same without them, and `convert` rewrites it with them.
  TempDir dir;
  const std::string old = GRUNDY_SOURCE_DIR "/tests/fuzz/corpus/gcsr/sample-layered.gcsr";
  EXPECT_NE(run_grundy({"info", old}).out.find("layered ids    yes, no degree runs"), std::string::npos);
  ASSERT_EQ(run_grundy({"convert", "-q", old, dir.file("new.gcsr")}).exit_code, 0);
  EXPECT_NE(run_grundy({"info", dir.file("new.gcsr")}).out.find("layered ids    yes, 5 degree runs\n"),
            std::string::npos);
  const auto want = run_grundy({"solve", GRUNDY_SOURCE_DIR "/datasets/sample.txt", "--move", "--sg-out", "-"});
  for (const std::string& f : {old, dir.file("new.gcsr")})
    EXPECT_EQ(run_grundy({"solve", f, "--move", "--sg-out", "-", "--verify"}).out, want.out) << f;
}

TEST(GcsrCli, SolveGivesTheSameAnswerAsText) {
  TempDir dir;
  for (Shape s : {Shape::uniform, Shape::layered, Shape::chain, Shape::powerlaw, Shape::tournament, Shape::kron}) {
    const std::string text = dir.file("g.txt");
    ASSERT_EQ(run_grundy({"gen", "--shape", std::string(shape_name(s)), "--nodes", "300", "--edges", "2000", "--tokens",
                          "6", "--layers", "4", text})
                  .exit_code,
              0);
    const auto want = run_grundy({"solve", text, "--move", "--sg-out", "-"});
    ASSERT_EQ(want.exit_code, 0);
    for (const char* layered : {"-q", "--layered"}) {
      ASSERT_EQ(run_grundy({"convert", "-q", text, dir.file("g.gcsr"), layered}).exit_code, 0);
      for (const char* algo : {"level", "serial", "bgl"}) {
        const auto got =
            run_grundy({"solve", dir.file("g.gcsr"), "--algo", algo, "--move", "--sg-out", "-", "--verify"});
        EXPECT_EQ(got.exit_code, 0) << got.err;
        EXPECT_EQ(got.out, want.out) << shape_name(s) << " " << layered << " " << algo;
      }
    }
  }
}

TEST(GcsrCli, GenWritesTheSameBytesForEveryThreadCount) {
  TempDir dir;
  for (const char* shape : {"uniform", "kron", "powerlaw"}) {
    for (const char* threads : {"1", "2", "3"}) {
      const auto r = run_grundy({"gen", "--shape", shape, "--nodes", "20000", "--edges", "200000", "--threads", threads,
                                 dir.file(std::string("g") + threads + ".gcsr")});
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    EXPECT_EQ(read_file(dir.file("g1.gcsr")), read_file(dir.file("g2.gcsr"))) << shape;
    EXPECT_EQ(read_file(dir.file("g1.gcsr")), read_file(dir.file("g3.gcsr"))) << shape;
  }
  for (const char* threads : {"1", "2"})
    ASSERT_EQ(run_grundy({"gen", "--nodes", "20000", "--edges", "200000", "--layered", "--threads", threads,
                          dir.file(std::string("l") + threads + ".gcsr")})
                  .exit_code,
              0);
  EXPECT_EQ(read_file(dir.file("l1.gcsr")), read_file(dir.file("l2.gcsr")));
}

TEST(GcsrCli, EdgeListsWithBaseAndTokens) {
  TempDir dir;
  const std::string el = dir.write("g.el", "0 1\n1 2\n0 2\n");
  ASSERT_EQ(run_grundy({"convert", "-q", el, dir.file("a.gcsr"), "--tokens", "0,1"}).exit_code, 0);
  EXPECT_EQ(run_grundy({"solve", dir.file("a.gcsr"), "--sg-out", "-"}).out, "win\n2\n1\n0\n");
  const std::string el1 = dir.write("h.el", "1 2\n2 3\n1 3\n");
  ASSERT_EQ(run_grundy({"convert", "-q", el1, dir.file("b.gcsr"), "--base", "1", "--tokens", "1,2"}).exit_code, 0);
  EXPECT_EQ(run_grundy({"solve", dir.file("b.gcsr")}).out, "win\n");
  auto r = run_grundy({"convert", el, dir.file("c.gcsr"), "--tokens", "7"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("token 1: node id 7 is not a node"), std::string::npos) << r.err;
  r = run_grundy({"convert", dir.write("d.el", "0 1\n2\n"), dir.file("d.gcsr")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir.file("d.gcsr")));
  r = run_grundy({"convert", dir.write("e.el", "0 1\n1 0\n"), dir.file("e.gcsr"), "--layered"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cycle: 1 -> 2 -> 1"), std::string::npos) << r.err;
}

TEST(GcsrCli, CorruptFilesFailCleanlyThroughTheBinary) {
  TempDir dir;
  const std::string good = test_support::sample_gcsr(false);
  for (std::size_t len : {std::size_t{0}, std::size_t{5}, std::size_t{63}, std::size_t{200}, good.size() - 1}) {
    const std::string f = dir.write("t.gcsr", good.substr(0, len));
    for (const char* cmd : {"solve", "info"}) {
      const auto r = run_grundy({cmd, f});
      EXPECT_EQ(r.signal, 0);
      EXPECT_EQ(r.exit_code, 1) << len;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
}

TEST(GcsrCli, InfoReportsTheGraphsFacts) {
  TempDir dir;
  ASSERT_EQ(
      run_grundy({"gen", "--shape", "tournament", "--nodes", "100", "--tokens", "3", dir.file("t.gcsr")}).exit_code, 0);
  const auto r = run_grundy({"info", "--json", dir.file("t.gcsr")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* fact : {"\"n\": 100,", "\"m\": 4950,", "\"k\": 3,", "\"depth\": 100,", "\"widest_layer\": 1,",
                           "\"out_degree\": {\"max\": 99,", "\"sg\": {\"max\": 99,", "\"format\": \"gcsr\""})
    EXPECT_NE(r.out.find(fact), std::string::npos) << fact << " in " << r.out;
  const auto text = run_grundy({"info", GRUNDY_SOURCE_DIR "/datasets/sample.txt"});
  EXPECT_NE(text.out.find("depth          4 layers"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("layered ids    no\n"), std::string::npos) << text.out;
  // The sample's layered form: 4 layers, whose nodes' out-degrees make 5 runs.
  ASSERT_EQ(run_grundy({"convert", "-q", GRUNDY_SOURCE_DIR "/datasets/sample.txt", dir.file("s.gcsr"), "--layered"})
                .exit_code,
            0);
  const auto layered = run_grundy({"info", dir.file("s.gcsr")});
  EXPECT_NE(layered.out.find("layered ids    yes, 5 degree runs\n"), std::string::npos) << layered.out;
  EXPECT_NE(run_grundy({"info", "--json", dir.file("s.gcsr")}).out.find("\"degree_runs\": 5,"), std::string::npos);
}

}  // namespace
}  // namespace grundy
