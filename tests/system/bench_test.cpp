// grundy bench and solve --profile through the binary: the report has every
// field, and verification really fails on a wrong engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "run_process.hpp"
#include "sanitized.hpp"

namespace grundy {
namespace {

using test_support::read_file;
using test_support::run_grundy;
using test_support::run_shell;
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
  for (const char* field : {"\"schema\": 4",
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
                            "\"l1d_cache_bytes\": ",
                            "\"thp_enabled\": ",
                            "\"march\": ",
                            "\"dirty\": ",
                            "\"floor_seconds\": {\"1\": {\"n\": ",
                            "\"phases\": {\"map input\": {\"n\": 2, \"mean\": ",
                            "\"validate\": ",
                            "\"stddev\": ",
                            "\"cv\": ",
                            "\"mad\": ",
                            "\"ci95\": [",
                            "\"samples\": [",
                            "\"outliers\": [",
                            "\"cost\": {\"seconds\": ",
                            "\"minor_faults\": ",
                            "\"involuntary_switches\": ",
                            "\"others_cpu_share\": ",
                            "\"load_average\": ",
                            "\"warnings\": [",
                            "\"layering\": ",
                            "\"mex\": ",
                            "\"xor\": ",
                            "\"sg_seconds\": ",
                            "\"total_seconds\": ",
                            "\"floor_seconds\": {\"n\": 2, ",
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
  // Every run also went to runs.jsonl as it finished, one line each.
  const std::string log = read_file(dir.file("out/runs.jsonl"));
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 12);
  EXPECT_NE(read_file(dir.file("out/bench.md")).find("| u | 2000 | 12000 | level | 2 |"), std::string::npos);
  // Above --baseline-max-edges the check is the mex rule, and the report says so.
  const auto m = run_grundy({"bench", "--manifest", tiny_manifest(dir), "--cache", dir.file("cache"), "--out",
                             dir.file("out2"), "--trials", "1", "--datasets", "u", "--baseline-max-edges", "10"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(read_file(dir.file("out2/bench.json")).find("\"verified\": \"mex rule\""), std::string::npos);
}

// The user's own graphs: a .gcsr, a classic text, an edge list and a
// generator spec in one run, with the report naming each.
TEST(Bench, RunsTheUsersFilesAndGeneratorSpecs) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "--shape", "kron", "-n", "2^12", "-m", "2e4", dir.file("k.gcsr")}).exit_code, 0);
  ASSERT_EQ(run_grundy({"gen", "-n", "1e3", "-m", "5K", dir.file("t.txt")}).exit_code, 0);
  const std::string el = dir.write("e.el", "0 1\n1 2\n0 2\n");
  const auto r = run_grundy({"bench", dir.file("k.gcsr"), dir.file("t.txt"), el,
                             "gen:chain,nodes=3000,edges=4000,seed=2", "--cache", dir.file("cache"), "--out",
                             dir.file("out"), "--trials", "2", "--algos", "level", "--threads", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = read_file(dir.file("out/bench.json"));
  for (const char* field : {"\"name\": \"k.gcsr\", \"kind\": \"file\"", "\"format\": \"gcsr\"", "\"name\": \"t.txt\"",
                            "\"format\": \"text\"", "\"parse\": ", "\"format\": \"el\"",
                            "\"name\": \"chain,nodes=3000,edges=4000,seed=2\", \"kind\": \"gen\"",
                            "\"generator\": \"grundy gen --shape chain --nodes 3000 --edges 4000"})
    EXPECT_NE(json.find(field), std::string::npos) << field;
  // bench.csv quotes a name with commas (RFC 4180), so the spec is one field.
  EXPECT_NE(read_file(dir.file("out/bench.csv")).find("\n\"chain,nodes=3000,edges=4000,seed=2\",3000,4000,level,1,2,"),
            std::string::npos);
  // The cache is keyed by every parameter and the generator's version.
  EXPECT_TRUE(std::filesystem::exists(dir.file("cache/chain-n3000-m4000-k10-s2-l8.g4.gcsr")));
  // One line per finished run, and a result line per run on stderr.
  EXPECT_NE(r.err.find("[4/4] chain,nodes=3000,edges=4000,seed=2, level, 1 thread: SG "), std::string::npos) << r.err;
}

// --instances: a generated input becomes distinct graphs (seeds in turn),
// each solved once a trial and checked against its own reference; a trial
// is one sample, their mean. A file stays one instance, with a note.
TEST(Bench, InstancesAreDistinctGraphsEachCheckedAgainstItsOwn) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "--shape", "kron", "-n", "2^11", "-m", "8000", dir.file("k.gcsr")}).exit_code, 0);
  const auto r = run_grundy({"bench", "gen:kron,nodes=3000,edges=12000,seed=5", dir.file("k.gcsr"), "--instances",
                             "3", "--cache", dir.file("cache"), "--out", dir.file("out"), "--trials", "2",
                             "--algos", "level,serial", "--threads", "1,2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> graphs;
  for (const char* seed : {"5", "6", "7"}) {
    const std::string file = dir.file(std::string("cache/kron-n3000-m12000-k10-s") + seed + "-l8.g4.gcsr");
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    graphs.push_back(read_file(file));
  }
  // Distinct graphs, so that a check against another instance's values fails.
  EXPECT_NE(graphs[0], graphs[1]);
  EXPECT_NE(graphs[1], graphs[2]);
  EXPECT_NE(r.err.find("k.gcsr is a file, one instance"), std::string::npos) << r.err;
  const std::string json = read_file(dir.file("out/bench.json"));
  for (const char* field : {"\"schema\": 4", "\"instances\": 3, \"files\": [\"", "-s7-l8.g4.gcsr\"]",
                            "\"name\": \"k.gcsr\", \"kind\": \"file\"", "\"instances\": 1, \"files\": [\"",
                            "\"m\": 12000, \"instances\": 3, \"verified\": \"baseline\"",
                            "\"phases\": {\"map input\": {\"n\": 2, "})
    EXPECT_NE(json.find(field), std::string::npos) << field;
  EXPECT_NE(read_file(dir.file("out/bench.md")).find("| kron,nodes=3000,edges=12000,seed=5 (3 instances) | 3000 |"),
            std::string::npos);
  // A wrong value is caught, and the line names the instance.
  const auto bad = run_grundy({"bench", "gen:kron,nodes=3000,edges=12000,seed=5", "--instances", "3", "--cache",
                               dir.file("cache"), "--out", dir.file("bad"), "--trials", "1", "--plant-error"});
  EXPECT_EQ(bad.exit_code, 3) << bad.err;
  EXPECT_NE(bad.err.find("-s5-l8.g4.gcsr): verification failed"), std::string::npos) << bad.err;
}

TEST(Bench, RefusesAnUnknownInputNamingTheValidOnes) {
  TempDir dir;
  const auto r = run_grundy({"bench", "no-such-thing", "--out", dir.file("out")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no-such-thing: no such file, folder or dataset"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("uniform-s, uniform-layered-s"), std::string::npos) << r.err;
  const auto bad = run_grundy({"bench", "gen:uniform,nodes=10,edgez=5", "--out", dir.file("out")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("the keys are nodes, edges"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out"))) << "nothing written for a refused run";
  // --list prints the built-in manifest (shipped inside the binary).
  const auto list = run_grundy({"bench", "--list", "--cache", dir.file("cache")});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("kron-l               large   kron"), std::string::npos) << list.out;
}

// Each run's peak memory is its own: a large graph benchmarked first does
// not leave its peak to the small one after it.
TEST(Bench, PeakMemoryBelongsToEachRun) {
  if (test_support::kSanitized) GTEST_SKIP() << "a sanitizer's allocator keeps freed memory: peaks say nothing there";
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "1e6", "-m", "4e6", dir.file("big.gcsr")}).exit_code, 0);
  ASSERT_EQ(run_grundy({"gen", "-n", "1e3", "-m", "4e3", dir.file("small.gcsr")}).exit_code, 0);
  const auto r = run_grundy({"bench", dir.file("big.gcsr"), dir.file("small.gcsr"), "--out", dir.file("out"),
                             "--trials", "1", "--algos", "level", "--threads", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string log = read_file(dir.file("out/runs.jsonl"));
  const auto peak = [&](std::size_t line) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < line; ++i) at = log.find('\n', at) + 1;
    at = log.find("\"peak_rss_bytes\": ", at) + 17;
    return std::stoull(log.substr(at));
  };
  const std::uint64_t big = peak(0), small = peak(1);
  EXPECT_GT(big, std::uint64_t{40} << 20) << "a 4*10^6-edge solve maps and allocates tens of MiB";
  EXPECT_LT(small, big / 2) << "small " << small << " big " << big;
}

// Killed half-way, a bench keeps every run it finished: runs.jsonl holds
// them whole, one JSON object a line.
TEST(Bench, AnInterruptKeepsEveryFinishedRun) {
  TempDir dir;
  const auto r = run_shell("\"$GRUNDY\" bench gen:uniform,nodes=2000,edges=8000 --cache '" + dir.file("cache") +
                           "' --out '" + dir.file("out") +
                           "' --algos level --threads 1,2,3,4,5,6,7,8 --trials 1000 --warmup 0 2>/dev/null & pid=$!; "
                           "while [ \"$(cat '" +
                           dir.file("out/runs.jsonl") +
                           "' 2>/dev/null | wc -l)\" -lt 2 ]; do sleep 0.01; done; kill -9 $pid; wait $pid; exit 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto runs = test_support::lines(read_file(dir.file("out/runs.jsonl")));
  ASSERT_GE(runs.size(), 2u);
  ASSERT_LT(runs.size(), 8u) << "killed before the end";
  for (const auto& line : runs) {
    EXPECT_EQ(line.rfind("{\"dataset\": ", 0), 0u) << line;
    EXPECT_EQ(line.back(), '}') << line;
    EXPECT_NE(line.find("\"warnings\": ["), std::string::npos) << line;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("out/bench.json"))) << "the summary is written at the end";
}

// A report of schema 3 with these SG samples (seconds) for one run.
std::string report_with(const TempDir& dir, const std::string& name, const std::string& samples) {
  return dir.write(name,
                   "{\"schema\": 3, \"runs\": [{\"dataset\": \"d\", \"algo\": \"level\", \"threads\": 2, "
                   "\"sg_seconds\": {\"samples\": [" +
                       samples + "]}, \"phases\": {\"mex\": {\"samples\": [" + samples + "]}}}]}\n");
}

TEST(BenchCompare, FlagsAPlantedSlowdownAndNoChangeOnTheSameReport) {
  TempDir dir;
  const std::string a = report_with(dir, "a.json", "1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.01, 0.99, 1.02");
  const std::string slow = report_with(dir, "b.json", "1.10, 1.12, 1.09, 1.11, 1.13, 1.08, 1.10, 1.11, 1.09, 1.12");
  const auto same = run_grundy({"bench", "compare", a, a, "--fail-above", "1.05"});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("d, level, 2 threads"), std::string::npos) << same.out;
  EXPECT_EQ(same.out.find("slower"), std::string::npos) << same.out;
  EXPECT_NE(same.out.find("no change"), std::string::npos) << same.out;
  const auto worse = run_grundy({"bench", "compare", a, slow, "--json", dir.file("c.json")});
  ASSERT_EQ(worse.exit_code, 0) << worse.err;
  EXPECT_NE(worse.out.find("1.100"), std::string::npos) << worse.out;
  EXPECT_NE(worse.out.find("slower"), std::string::npos) << worse.out;
  EXPECT_NE(read_file(dir.file("c.json")).find("\"verdict\": \"slower\""), std::string::npos);
  // As a CI gate: a significant slowdown past the bar fails; below it, not.
  EXPECT_EQ(run_grundy({"bench", "compare", a, slow, "--fail-above", "1.05"}).exit_code, 1);
  EXPECT_EQ(run_grundy({"bench", "compare", a, slow, "--fail-above", "1.2"}).exit_code, 0);
  EXPECT_EQ(run_grundy({"bench", "compare", slow, a, "--fail-above", "1.05"}).exit_code, 0) << "faster passes";
  const auto old = run_grundy({"bench", "compare", dir.write("old.json", "{\"schema\": 2, \"runs\": []}"), a});
  EXPECT_EQ(old.exit_code, 1);
  EXPECT_NE(old.err.find("needs schema 3"), std::string::npos) << old.err;
}

// --format gbench writes what Google Benchmark's compare.py reads (Debian's
// libbenchmark-tools, under /usr/bin/python3 with scipy).
TEST(BenchCompare, GoogleBenchmarksCompareReadsTheGbenchFormat) {
  if (!std::filesystem::exists("/usr/share/benchmark/compare.py")) GTEST_SKIP() << "libbenchmark-tools not installed";
  TempDir dir;
  for (const char* out : {"a", "b"}) {
    const auto r =
        run_grundy({"bench", "gen:uniform,nodes=3000,edges=12000", "--cache", dir.file("cache"), "--out", dir.file(out),
                    "--algos", "level", "--threads", "1", "--trials", "9", "--format", "gbench"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto r = run_shell("/usr/bin/python3 /usr/share/benchmark/compare.py benchmarks '" + dir.file("a/gbench.json") +
                           "' '" + dir.file("b/gbench.json") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("uniform,nodes=3000,edges=12000/level/threads:1_pvalue"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/level/threads:1/mex"), std::string::npos) << r.out;
}

// report.html renders offline in headless Chromium: its own script draws
// the charts and says so on <body>, and the screenshot is not blank.
TEST(BenchReport, TheHtmlReportRendersOffline) {
  if (!std::filesystem::exists("/usr/bin/chromium")) GTEST_SKIP() << "chromium not installed (tools/ci/setup.sh)";
  TempDir dir;
  const auto r = run_grundy({"bench", "gen:kron,nodes=2^12,edges=3e4", "gen:chain,nodes=3000,edges=4000", "--cache",
                             dir.file("cache"), "--out", dir.file("out"), "--threads", "1,2", "--trials", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string blank = dir.write("blank.html", "<!doctype html><html><body></body></html>");
  const auto chromium = [&](const std::string& what, const std::string& page) {
    return run_shell("/usr/bin/chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir='" +
                     dir.file("profile") + "' --window-size=1240,1400 " + what + " 'file://" + page + "' 2>/dev/null");
  };
  const auto dom = chromium("--dump-dom", dir.file("out/report.html"));
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_NE(dom.out.find("data-rendered=\"true\""), std::string::npos) << "the page's script did not finish";
  const auto charts = dom.out.find("data-charts=\"");
  ASSERT_NE(charts, std::string::npos);
  EXPECT_GE(std::stoi(dom.out.substr(charts + 13)), 5)
      << "two throughput charts, the phase legend and bars, trials, floor";
  ASSERT_EQ(chromium("--screenshot='" + dir.file("report.png") + "'", dir.file("out/report.html")).exit_code, 0);
  ASSERT_EQ(chromium("--screenshot='" + dir.file("blank.png") + "'", blank).exit_code, 0);
  const auto report_png = std::filesystem::file_size(dir.file("report.png"));
  const auto blank_png = std::filesystem::file_size(dir.file("blank.png"));
  EXPECT_GT(report_png, 5 * blank_png) << "report " << report_png << " bytes, blank " << blank_png;
}

TEST(Solve, TrialsAndVerificationReportGapbsStyle) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "2000", "-m", "9000", dir.file("g.gcsr")}).exit_code, 0);
  const auto r = run_grundy({"solve", dir.file("g.gcsr"), "--trials", "3", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out == "win\n" || r.out == "lose\n") << "stdout keeps the verdict alone: " << r.out;
  const auto err = test_support::lines(r.err);
  ASSERT_EQ(err.size(), 5u) << r.err;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(err[i].rfind("Trial Time:          0.", 0), 0u) << err[i];
  EXPECT_EQ(err[3].rfind("Average Time:        0.", 0), 0u) << err[3];
  EXPECT_EQ(err[4], "Verification:        PASS (verified: Boost.Graph baseline + mex rule, 2000 nodes, 9000 edges)");
  const auto bad = run_grundy({"solve", dir.file("g.gcsr"), "--verify", "--plant-error", "7"});
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.err.find("Verification:        FAIL\n"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("verification failed"), std::string::npos) << bad.err;
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

// What the trace holds, summarised by Python's json module (which also
// proves it valid JSON): "tracks: N", then "name: count" for each thread
// name, span name and counter.
std::string trace_summary(const std::string& path) {
  const auto r = test_support::run_shell(
      "/usr/bin/python3 -c 'import json, collections, sys\n"
      "t = json.load(open(sys.argv[1]))\n"
      "ev = t[\"traceEvents\"]\n"
      "names = [e[\"args\"][\"name\"] for e in ev if e[\"name\"] == \"thread_name\"]\n"
      "spans = collections.Counter(e[\"name\"] for e in ev if e[\"ph\"] in \"XC\")\n"
      "tids = collections.defaultdict(set)\n"
      "[tids[e[\"name\"]].add(e[\"tid\"]) for e in ev if e[\"ph\"] == \"X\"]\n"
      "print(\"events:\", len(ev))\n"
      "print(\"coalesced:\", len(t[\"otherData\"][\"coalesced\"]))\n"
      "[print(\"thread:\", n) for n in names]\n"
      "[print(\"span:\", k, v, \"on\", len(tids[k]), \"tracks\") for k, v in sorted(spans.items())]\n"
      "' '" +
      path + "'");
  return r.exit_code == 0 ? r.out : "invalid: " + r.err;
}

// The trace has a track per thread, named after oneTBB's workers, with the
// mex pass's pieces on both, the layering's rounds, and counter tracks.
TEST(Profile, TheTraceHasATrackPerWorkerAndCounters) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "3e5", "-m", "3e6", dir.file("g.gcsr")}).exit_code, 0);
  // A solve this short may end before a busy machine (ctest -j2) lets the
  // worker run any piece: a few tries.
  std::string summary;
  for (int attempt = 0; attempt < 5 && summary.find("on 2 tracks") == std::string::npos; ++attempt) {
    const auto r = run_grundy({"solve", dir.file("g.gcsr"), "--threads", "2", "--profile", dir.file("p.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    summary = trace_summary(dir.file("p.json"));
  }
  for (const char* want :
       {"thread: main", "thread: oneTBB worker 1", "span: mex piece", "span: round ", "span: in-degree count ",
        "span: ready scan", "span: frontier width", "span: edges per round", "span: mex step edges"})
    EXPECT_NE(summary.find(want), std::string::npos) << want << " in\n" << summary;
  EXPECT_NE(summary.find("on 2 tracks"), std::string::npos) << "pieces on both threads:\n" << summary;
  const std::string trace = read_file(dir.file("p.json"));
  for (const char* field :
       {"\"process_name\"", "\"command\": \"solve\"", "\"n\": 300000", "\"build\": ", "\"dropped_events\": 0"})
    EXPECT_NE(trace.find(field), std::string::npos) << field;
}

// A deep chain's rounds are banded after the first thousand, so its trace
// stays small, and the metadata says that they were.
TEST(Profile, ADeepChainsTraceIsBandedAndSmall) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "--shape", "chain", "-n", "1e6", "-m", "1e6", dir.file("c.gcsr")}).exit_code, 0);
  const auto r = run_grundy({"solve", dir.file("c.gcsr"), "--profile", dir.file("p.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string summary = trace_summary(dir.file("p.json"));
  EXPECT_NE(summary.find("coalesced: 1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("span: rounds "), std::string::npos) << summary;
  EXPECT_LT(std::filesystem::file_size(dir.file("p.json")), std::uintmax_t{10} << 20) << summary;
}

// batch --profile: one span per instance, on the worker that solved it,
// named after the instance, with its n and m.
TEST(Profile, BatchHasASpanPerInstance) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "300", "-m", "900", "--instances", "40", dir.file("s.txt")}).exit_code, 0);
  const auto r = run_grundy({"batch", "-q", dir.file("s.txt"), "--threads", "2", "--profile", dir.file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string summary = trace_summary(dir.file("b.json"));
  for (int i = 1; i <= 40; ++i)
    EXPECT_NE(summary.find("s.txt#" + std::to_string(i) + " 1 on 1 tracks"), std::string::npos) << i << summary;
  EXPECT_EQ(summary.find("span: round"), std::string::npos) << "a batch trace keeps instances only";
  const std::string trace = read_file(dir.file("b.json"));
  EXPECT_NE(trace.find("\"args\": {\"n\": 300, \"m\": 900}"), std::string::npos);
}

// --stats-json: each phase with its edges/s and every worker's busy and
// idle time, the mex paths, "schema": 1.
TEST(Profile, StatsJsonHasPhasesWorkersAndMexPaths) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "3e5", "-m", "3e6", dir.file("g.gcsr")}).exit_code, 0);
  const auto r =
      run_grundy({"solve", dir.file("g.gcsr"), "--threads", "2", "--stats", "--stats-json", dir.file("s.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = read_file(dir.file("s.json"));
  for (const char* field : {"{\"schema\": 1, \"command\": \"solve\"", "\"name\": \"layering\"", "\"name\": \"mex\"",
                            "\"edges_per_second\": ", "\"workers\": [{\"thread\": \"main\", \"busy_seconds\": ",
                            "\"thread\": \"oneTBB worker 1\"", "\"idle_seconds\": ", "\"mex_paths\": {\"unrolled\": {",
                            "\"bitset\": {", "\"layering_parts\": {\"count_seconds\": "})
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
  EXPECT_NE(r.err.find("oneTBB worker 1    busy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mex paths by edges: unrolled (< 24)"), std::string::npos) << r.err;
  EXPECT_EQ(
      run_shell("/usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' '" + dir.file("s.json") + "'")
          .exit_code,
      0)
      << "valid JSON";
}

// --perf-control CTL,ACK speaks perf's control protocol: "enable" once the
// input is loaded, "disable" before the output, each acknowledged. A shell
// loop stands in for perf here (tools/measure/perf_solve.sh runs the real one).
TEST(Profile, PerfControlEnablesOnlyAroundTheSolve) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-n", "2000", "-m", "8000", dir.file("g.txt")}).exit_code, 0);
  const std::string d = dir.path();
  const auto r =
      run_shell("cd '" + d +
                "' || exit 9; mkfifo ctl ack || exit 9; "
                "( exec 3<ctl 4>ack; while read -r c <&3; do echo \"$c\" >> log; printf 'ack\\n\\0' >&4; done ) & "
                "timeout 60 \"$GRUNDY\" solve g.txt --stats --perf-control ctl,ack 2>err; rc=$?; wait; cat log; "
                "exit $rc");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(r.out == "win\nenable\ndisable\n" || r.out == "lose\nenable\ndisable\n") << r.out;
  const auto bad = run_grundy({"solve", dir.file("g.txt"), "--perf-control", dir.file("none") + "," + dir.file("x")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("cannot open the control FIFO"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out, "") << "nothing solved";
}

// bench --profile DIR: one traced trial per run, apart from the timed ones.
TEST(Profile, BenchWritesATracePerRun) {
  TempDir dir;
  const auto r =
      run_grundy({"bench", "gen:uniform,nodes=3000,edges=12000", "--cache", dir.file("cache"), "--out", dir.file("out"),
                  "--algos", "level,serial", "--threads", "1,2", "--trials", "2", "--profile", dir.file("traces")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* run : {"level-1t", "level-2t", "serial-1t"}) {
    const std::string path = dir.file(std::string("traces/uniform_nodes_3000_edges_12000-") + run + ".json");
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    const std::string summary = trace_summary(path);
    EXPECT_NE(summary.find("thread: main"), std::string::npos) << summary;
    EXPECT_NE(summary.find("span: xor"), std::string::npos) << summary;
  }
}

TEST(Profile, WritesAChromeTrace) {
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "--shape", "uniform", "--nodes", "5000", "--edges", "20000", dir.file("g.txt")}).exit_code,
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
