#include "bench_report.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "grundy/io/output_file.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string spread_json(const Spread& s) {
  return "{\"median\": " + num(s.median) + ", \"min\": " + num(s.min) + ", \"max\": " + num(s.max) + "}";
}

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", seconds * 1e3);
  return buf;
}

std::string ratio(double r) {
  if (r <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", r);
  return buf;
}

}  // namespace

Spread Spread::of(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return {median, v.front(), v.back()};
}

void BenchReport::finish() {
  const auto find = [&](const std::string& ds, const std::string& algo, unsigned threads) -> const BenchRun* {
    for (const auto& r : runs)
      if (r.dataset == ds && r.algo == algo && r.threads == threads) return &r;
    return nullptr;
  };
  for (auto& r : runs) {
    const auto ds = std::find_if(datasets.begin(), datasets.end(), [&](const auto& d) { return d.name == r.dataset; });
    if (ds == datasets.end() || r.sg.median <= 0) continue;
    r.edges_per_second = static_cast<double>(ds->m) / r.sg.median;
    if (const BenchRun* one = find(r.dataset, r.algo, 1)) r.speedup_vs_1_thread = one->sg.median / r.sg.median;
    if (const BenchRun* bgl = find(r.dataset, "bgl", 1)) r.speedup_vs_bgl = bgl->sg.median / r.sg.median;
  }
}

void BenchReport::write(const std::string& dir) const {
  std::filesystem::create_directories(dir);
  // JSON: one object, documented in results/README.md ("schema": 2).
  std::string j = "{\n  \"schema\": 2,\n  \"commit\": " + json_string(commit) +
                  ",\n  \"command\": " + json_string(command) + ",\n  \"date\": " + json_string(date) +
                  ",\n  \"machine\": {";
  bool first = true;
  for (const auto& [k, v] : machine) {
    j += (first ? "" : ", ") + json_string(k) + ": " + json_string(v);
    first = false;
  }
  j += "},\n  \"datasets\": [\n";
  for (std::size_t i = 0; i < datasets.size(); ++i) {
    const auto& d = datasets[i];
    j += "    {\"name\": " + json_string(d.name) + ", \"size\": " + json_string(d.size) +
         ", \"shape\": " + json_string(d.shape) + ", \"n\": " + std::to_string(d.n) +
         ", \"m\": " + std::to_string(d.m) + ", \"k\": " + std::to_string(d.k) +
         ", \"layered\": " + (d.layered ? "true" : "false") + ", \"generator\": " + json_string(d.generator) +
         ", \"floor_seconds\": {";
    bool f = true;
    for (const auto& [t, s] : d.floor) {
      j += (f ? "" : ", ") + std::string("\"") + std::to_string(t) + "\": " + spread_json(s);
      f = false;
    }
    j += "}}" + std::string(i + 1 < datasets.size() ? "," : "") + "\n";
  }
  j += "  ],\n  \"runs\": [\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    j += "    {\"dataset\": " + json_string(r.dataset) + ", \"algo\": " + json_string(r.algo) +
         ", \"threads\": " + std::to_string(r.threads) + ", \"trials\": " + std::to_string(r.trials) +
         ", \"verified\": " + json_string(r.verified) + ", \"phases\": {";
    for (std::size_t p = 0; p < r.phases.size(); ++p)
      j += (p ? ", " : "") + json_string(r.phases[p].first) + ": " + spread_json(r.phases[p].second);
    j += "}, \"sg_seconds\": " + spread_json(r.sg) + ", \"total_seconds\": " + spread_json(r.total) +
         ", \"floor_seconds\": " + spread_json(r.floor) + ", \"edges_per_second\": " + num(r.edges_per_second) +
         ", \"peak_rss_bytes\": " + std::to_string(r.peak_rss_bytes) +
         ", \"ratio_to_floor\": " + num(r.ratio_to_floor) + ", \"speedup_vs_1_thread\": " + num(r.speedup_vs_1_thread) +
         ", \"speedup_vs_bgl\": " + num(r.speedup_vs_bgl) + "}" + (i + 1 < runs.size() ? "," : "") + "\n";
  }
  j += "  ]\n}\n";
  OutputFile json(dir + "/bench.json");
  json.write(j);
  json.commit();

  std::string csv =
      "dataset,n,m,algo,threads,trials,verified,sg_median_s,sg_min_s,sg_max_s,total_median_s,edges_per_second,"
      "peak_rss_bytes,floor_median_s,ratio_to_floor,speedup_vs_1_thread,speedup_vs_bgl\n";
  std::string md =
      "| dataset | N | M | algo | threads | SG median ms (min-max) | total ms | edges/s | floor ms | "
      "× floor | × 1 thread | × bgl | peak RSS MiB | verified |\n"
      "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const auto& r : runs) {
    const auto ds = std::find_if(datasets.begin(), datasets.end(), [&](const auto& d) { return d.name == r.dataset; });
    const double floor = r.floor.median;
    const std::uint64_t n = ds != datasets.end() ? ds->n : 0, m = ds != datasets.end() ? ds->m : 0;
    csv += r.dataset + "," + std::to_string(n) + "," + std::to_string(m) + "," + r.algo + "," +
           std::to_string(r.threads) + "," + std::to_string(r.trials) + "," + r.verified + "," + num(r.sg.median) +
           "," + num(r.sg.min) + "," + num(r.sg.max) + "," + num(r.total.median) + "," + num(r.edges_per_second) + "," +
           std::to_string(r.peak_rss_bytes) + "," + num(floor) + "," + num(r.ratio_to_floor) + "," +
           num(r.speedup_vs_1_thread) + "," + num(r.speedup_vs_bgl) + "\n";
    char eps[32];
    std::snprintf(eps, sizeof eps, "%.1fM", r.edges_per_second / 1e6);
    md += "| " + r.dataset + " | " + std::to_string(n) + " | " + std::to_string(m) + " | " + r.algo + " | " +
          std::to_string(r.threads) + " | " + ms(r.sg.median) + " (" + ms(r.sg.min) + "-" + ms(r.sg.max) + ") | " +
          ms(r.total.median) + " | " + eps + " | " + ms(floor) + " | " + ratio(r.ratio_to_floor) + " | " +
          ratio(r.speedup_vs_1_thread) + " | " + ratio(r.speedup_vs_bgl) + " | " +
          std::to_string(r.peak_rss_bytes >> 20) + " | " + r.verified + " |\n";
  }
  OutputFile c(dir + "/bench.csv");
  c.write(csv);
  c.commit();
  OutputFile t(dir + "/bench.md");
  t.write(md);
  t.commit();
}

}  // namespace grundy::cli
