#include "bench_stats.hpp"

#include "json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace grundy::cli {
namespace {

double median_of_sorted(const std::vector<double>& v) {
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The 1-based rank l such that [x_(l), x_(n+1-l)] covers the median with at
// least 95 % confidence: the largest l with P(Bin(n, 1/2) < l) <= 2.5 %.
std::size_t median_interval_rank(std::size_t n) {
  double cdf = 0, term = std::pow(0.5, static_cast<double>(n));  // P(X = 0)
  std::size_t l = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (cdf + term > 0.025) break;
    cdf += term;
    l = k + 1;
    term = term * static_cast<double>(n - k) / static_cast<double>(k + 1);
  }
  return std::max<std::size_t>(l, 1);  // below 6 samples: min to max
}

}  // namespace

Summary Summary::of(std::vector<double> samples) {
  Summary s;
  s.samples = samples;
  if (samples.empty()) return s;
  const std::size_t n = samples.size();
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = median_of_sorted(samples);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double sq = 0;
    for (double x : samples) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(n - 1));
    s.cv = s.mean > 0 ? s.stddev / s.mean : 0;
  }
  std::vector<double> dev;
  dev.reserve(n);
  for (double x : samples) dev.push_back(std::abs(x - s.median));
  std::sort(dev.begin(), dev.end());
  s.mad = median_of_sorted(dev);
  const std::size_t l = median_interval_rank(n);
  s.ci_low = samples[l - 1];
  s.ci_high = samples[n - l];
  // Iglewicz and Hoaglin's modified z-score, as hyperfine marks outliers.
  for (std::size_t i = 0; s.mad > 0 && i < n; ++i)
    if (0.6745 * std::abs(s.samples[i] - s.median) / s.mad > 3.5) s.outliers.push_back(i);
  return s;
}

std::string Summary::json() const {
  std::string j = "{\"n\": " + std::to_string(samples.size()) + ", \"mean\": " + json_number(mean) +
                  ", \"stddev\": " + json_number(stddev) + ", \"cv\": " + json_number(cv) +
                  ", \"median\": " + json_number(median) + ", \"min\": " + json_number(min) +
                  ", \"max\": " + json_number(max) + ", \"mad\": " + json_number(mad) + ", \"ci95\": [" +
                  json_number(ci_low) + ", " + json_number(ci_high) + "], \"samples\": [";
  for (std::size_t i = 0; i < samples.size(); ++i) j += (i ? ", " : "") + json_number(samples[i]);
  j += "], \"outliers\": [";
  for (std::size_t i = 0; i < outliers.size(); ++i) j += (i ? ", " : "") + std::to_string(outliers[i]);
  return j + "]}";
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n1 = a.size(), n2 = b.size();
  if (n1 < 3 || n2 < 3) return 1;
  std::vector<std::pair<double, int>> all;
  for (double x : a) all.push_back({x, 0});
  for (double x : b) all.push_back({x, 1});
  std::sort(all.begin(), all.end());
  const std::size_t n = all.size();
  double rank_sum_a = 0, ties = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && all[j].first == all[i].first) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;  // mid-rank of the tie
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second == 0) rank_sum_a += rank;
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double u = rank_sum_a - static_cast<double>(n1 * (n1 + 1)) / 2;
  const double mean = static_cast<double>(n1 * n2) / 2;
  const double nn = static_cast<double>(n);
  const double var = static_cast<double>(n1 * n2) / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
  if (var <= 0) return 1;
  const double z = (std::abs(u - mean) - 0.5) / std::sqrt(var);  // continuity correction
  return std::min(1.0, std::erfc(std::max(0.0, z) / std::sqrt(2.0)));
}

}  // namespace grundy::cli
