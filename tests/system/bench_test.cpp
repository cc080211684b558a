// grundy bench and solve --profile through the binary: the report has every
// field, and verification really fails on a wrong engine.
#include <gtest/gtest.h>

#include "run_process.hpp"

namespace grundy {
namespace {

using test_support::read_file;
using test_support::run_grundy;
using test_support::TempDir;

std::string tiny_manifest(const TempDir& dir) {
  return dir.write("m.tsv",
                   "# name\tsize\tshape\tnodes\tedges\ttokens\tseed\tlayers\tlayered\n"
                   "u\tsmall\tuniform\t2000\t12000\t5\t1\t8\tno\n"
                   "ul\tsmall\tuniform\t2000\t12000\t5\t1\t8\tyes\n"
                   "c\tsmall\tchain\t3000\t3000\t5\t1\t8\tno\n"
                   "big\tmedium\tuniform\t2000\t12000\t5\t1\t8\tno\n");
}

TEST(Bench, WritesEveryFieldForEveryRun) {
  TempDir dir;
  const auto r = run_grundy({"bench", "--manifest", tiny_manifest(dir), "--cache", dir.file("cache"), "--out",
                             dir.file("out"), "--trials", "2", "--threads", "1,2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = read_file(dir.file("out/bench.json"));
  for (const char* field : {"\"schema\": 2",
                            "\"commit\": ",
                            "\"command\": \"grundy bench --manifest",
                            "\"machine\": {",
                            "\"cpu\": ",
                            "\"cores\": ",
                            "\"memory_bytes\": ",
                            "\"compiler\": ",
                            "\"onetbb\": ",
                            "\"boost\": ",
                            "\"cli11\": ",
                            "\"floor_seconds\": {\"1\": {\"median\": ",
                            "\"phases\": {\"load/validate\": {\"median\": ",
                            "\"layering\": ",
                            "\"mex\": ",
                            "\"xor\": ",
                            "\"sg_seconds\": ",
                            "\"total_seconds\": ",
                            "\"floor_seconds\": {\"median\": ",
                            "\"edges_per_second\": ",
                            "\"peak_rss_bytes\": ",
                            "\"ratio_to_floor\": ",
                            "\"speedup_vs_1_thread\": ",
                            "\"speedup_vs_bgl\": ",
                            "\"verified\": \"baseline\"",
                            "\"generator\": \"grundy gen --shape chain"})
    EXPECT_NE(json.find(field), std::string::npos) << field;
  EXPECT_EQ(json.find("\"big\""), std::string::npos) << "only the sizes asked for";
  // 3 datasets x (level at 1 and 2 threads, serial, bgl) = 12 runs.
  std::size_t runs = 0;
  for (std::size_t at = json.find("\"algo\": "); at != std::string::npos; at = json.find("\"algo\": ", at + 1)) ++runs;
  EXPECT_EQ(runs, 12u);
  EXPECT_NE(read_file(dir.file("out/bench.csv")).find("dataset,n,m,algo,threads"), std::string::npos);
  EXPECT_NE(read_file(dir.file("out/bench.md")).find("| u | 2000 | 12000 | level | 2 |"), std::string::npos);
  // Above --baseline-max-edges the check is the mex rule, and the report says so.
  const auto m = run_grundy({"bench", "--manifest", tiny_manifest(dir), "--cache", dir.file("cache"), "--out",
                             dir.file("out2"), "--trials", "1", "--datasets", "u", "--baseline-max-edges", "10"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(read_file(dir.file("out2/bench.json")).find("\"verified\": \"mex rule\""), std::string::npos);
}

TEST(Bench, VerificationFailsOnAWrongEngine) {
  TempDir dir;
  for (const char* limit : {"100000000", "10"}) {  // baseline, then mex rule
    const auto r =
        run_grundy({"bench", "--manifest", tiny_manifest(dir), "--cache", dir.file("cache"), "--out", dir.file("out"),
                    "--trials", "1", "--datasets", "u", "--plant-error", "--baseline-max-edges", limit});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("verification failed"), std::string::npos) << r.err;
  }
}

TEST(Profile, WritesAChromeTrace) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "--shape", "chain", "--nodes", "5000", "--edges", "20000", dir.file("g.txt")}).exit_code,
            0);
  const auto r = run_grundy({"solve", dir.file("g.txt"), "--profile", dir.file("p.json"), "--stats"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string trace = read_file(dir.file("p.json"));
  for (const char* field :
       {"{\"displayTimeUnit\": \"ms\", \"traceEvents\": [", "\"ph\": \"X\"",
        "\"ts\": ", "\"dur\": ", "\"name\": \"parse\"", "\"name\": \"layering\"", "\"cat\": \"mex\"", "\"width\": ",
        "\"mex_fast_path_node_share\": ", "\"in-degree count us\": ", "\"rounds us\": ", "\"ready-node scans us\": "})
    EXPECT_NE(trace.find(field), std::string::npos) << field;
  EXPECT_NE(r.err.find("mex fast path (out-degree < 64)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("grundy: total"), std::string::npos);
  for (const char* part : {"grundy:   in-degree count", "grundy:   rounds", "grundy:   ready-node scans"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << " in " << r.err;
}

}  // namespace
}  // namespace grundy
