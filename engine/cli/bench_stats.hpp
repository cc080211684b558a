// The statistics of a run's samples, as hyperfine and Google Benchmark
// users expect them: every sample kept, the usual moments, robust ones
// (median, MAD), a distribution-free 95 % interval for the median, and
// outliers marked.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace grundy::cli {

struct Summary {
  std::vector<double> samples;          ///< in the order they were taken
  double mean = 0, stddev = 0, cv = 0;  ///< cv: stddev / mean (0 for one sample)
  double median = 0, min = 0, max = 0;
  double mad = 0;                     ///< median absolute deviation (unscaled)
  double ci_low = 0, ci_high = 0;     ///< 95 % interval for the median (order statistics)
  std::vector<std::size_t> outliers;  ///< indexes of samples whose modified z-score passes 3.5

  static Summary of(std::vector<double> samples);
  /// {"n": .., "mean": .., ..., "samples": [..], "outliers": [..]}
  std::string json() const;
};

/// The two-sided p-value of the Mann-Whitney U test that a and b come from
/// one distribution (normal approximation with tie correction; exact
/// enumeration is not needed for the sample sizes a benchmark takes, and
/// below 3 samples a side the test says nothing: 1).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace grundy::cli
