// What `grundy bench` measures, and how it is written: JSON (the schema is
// documented in results/README.md), CSV and a Markdown table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace grundy::cli {

/// Median, minimum and maximum of a list of seconds.
struct Spread {
  double median = 0, min = 0, max = 0;
  static Spread of(std::vector<double> samples);
};

struct BenchDataset {
  std::string name, size, shape, file;
  std::uint64_t n = 0, m = 0, k = 0;
  bool layered = false;
  std::string generator;             ///< the `grundy gen` command that makes the file
  std::map<unsigned, Spread> floor;  ///< threads -> the floor kernel's time, over every run's trials
};

struct BenchRun {
  std::string dataset, algo;
  unsigned threads = 1;
  std::size_t trials = 0;
  std::vector<std::pair<std::string, Spread>> phases;  ///< in the order they ran
  Spread total;                                        ///< every phase: load/validate, solve, xor
  Spread sg;                                           ///< the SG computation alone (the solver's phases)
  Spread floor;                                        ///< the floor pass timed just before each trial, same threads
  std::string verified;                                ///< "baseline" or "mex rule"
  std::uint64_t peak_rss_bytes = 0;
  /// Median over the trials of each trial's SG time over its own floor pass.
  double ratio_to_floor = 0;
  // Derived, filled by finish():
  double edges_per_second = 0;
  double speedup_vs_1_thread = 0;  ///< same algo, 1 thread / this, on sg medians
  double speedup_vs_bgl = 0;       ///< bgl (1 thread) / this, on sg medians
};

struct BenchReport {
  std::map<std::string, std::string> machine;  ///< cpu, cores, memory, kernel, compiler, libraries...
  std::string commit, command, date;
  std::vector<BenchDataset> datasets;
  std::vector<BenchRun> runs;

  /// Fills the derived fields of every run.
  void finish();
  /// Writes bench.json, bench.csv and bench.md into `dir`.
  void write(const std::string& dir) const;
};

/// This machine, compiler and libraries, as report fields.
std::map<std::string, std::string> describe_machine();
/// The source tree's commit ("unknown" outside a git checkout), "-dirty" if modified;
/// $GRUNDY_COMMIT, when set, names it for a binary carried away from its checkout.
std::string source_commit();

}  // namespace grundy::cli
