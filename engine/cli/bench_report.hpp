// What `grundy bench` measures, and how it is written: a JSON line per run
// as it finishes (runs.jsonl, flushed, so an interrupt keeps every finished
// run), and at the end bench.json (the schema is in results/README.md),
// bench.csv, bench.md and report.html.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench_probe.hpp"
#include "bench_stats.hpp"

namespace grundy::cli {

struct BenchDataset {
  std::string name, kind, size, file, format;
  std::uint64_t n = 0, m = 0, k = 0;
  bool layered = false;
  std::string generator;              ///< the `grundy gen` command that makes the file ("" for a user's file)
  std::vector<std::string> files;     ///< every instance's file (--instances: the generator's seeds in turn)
  std::map<unsigned, Summary> floor;  ///< threads -> the floor pass, over every run's trials
};

struct BenchRun {
  std::string dataset, algo;
  unsigned threads = 1;
  std::size_t warmup = 0;
  bool cold = false;
  std::uint64_t n = 0, m = 0;
  std::size_t instances = 1;                            ///< distinct graphs per trial, its samples their mean
  std::vector<std::pair<std::string, Summary>> phases;  ///< in the order they ran
  Summary total;                                        ///< every phase: load, solve, xor
  Summary sg;                                           ///< the SG computation alone (the solver's phases)
  Summary floor;                                        ///< the floor pass timed just before each trial
  Summary ratio;                                        ///< each trial's SG time over its own floor pass
  std::string verified;                                 ///< "baseline" or "mex rule"
  RunCost cost;
  std::vector<std::string> warnings;  ///< noisy samples, a busy machine
  // Derived: edges_per_second at once, the speed-ups by BenchReport::finish().
  double edges_per_second = 0;
  double speedup_vs_1_thread = 0;  ///< same algo, 1 thread / this, on SG medians
  double speedup_vs_bgl = 0;       ///< bgl (1 thread) / this, on SG medians

  /// Fills edges_per_second and the warnings (CV past 5 %, others past 10 % of the machine).
  void assess();
  std::string json() const;
};

struct BenchReport {
  std::vector<std::pair<std::string, std::string>> machine;  ///< key -> JSON value
  std::string commit, command, date;
  std::vector<BenchDataset> datasets;
  std::vector<BenchRun> runs;

  /// Fills the speed-ups and each dataset's floor summaries.
  void finish();
  /// bench.json's text.
  std::string json() const;
  /// Writes bench.json, bench.csv, bench.md and report.html (self-contained:
  /// the data inline, SVG charts drawn by its own script) into `dir`.
  void write(const std::string& dir) const;
  /// Writes gbench.json into `dir`: Google Benchmark's JSON (a repetition
  /// per trial, then mean, median, stddev and cv), for its compare.py.
  void write_gbench(const std::string& dir) const;
};

/// runs.jsonl: one complete run per line, flushed as it is written.
class RunLog {
 public:
  explicit RunLog(const std::string& path);
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;
  void append(const BenchRun& run);

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

/// This machine, its memory settings, the build and the libraries, as
/// report fields (key -> JSON value: numbers as numbers).
std::vector<std::pair<std::string, std::string>> describe_machine();

}  // namespace grundy::cli
