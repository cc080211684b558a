// grundy bench compare A B: two reports (folders or bench.json files), run
// by run and phase, the ratio of medians (B over A), a Mann-Whitney U
// p-value over the trials' samples and a verdict at alpha 0.05, as
// Google Benchmark's compare.py gives them; with a bar, a CI gate.
#pragma once

#include <string>

namespace grundy::cli {

struct CompareOptions {
  std::string a, b;
  std::string json;       ///< also write the comparison as JSON here
  double fail_above = 0;  ///< > 0: exit 1 when a significant SG slowdown passes this ratio
  double alpha = 0.05;
};

/// Prints the table on stdout; returns the exit code.
int run_compare(const CompareOptions& o);

}  // namespace grundy::cli
