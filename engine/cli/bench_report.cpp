#include "bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "grundy/core/input_error.hpp"
#include "grundy/io/output_file.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 0.01 ? "%.3f" : "%.1f", seconds * 1e3);
  return buf;
}

std::string ratio(double r) {
  if (r <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", r);
  return buf;
}

// A CSV field as RFC 4180 writes it: quoted, its quotes doubled, where it
// holds a comma, a quote or a line break (a gen: spec's name has commas).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// A Markdown table cell: a '|' in it would end the cell.
std::string md_cell(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", share * 100);
  return buf;
}

std::string cost_json(const RunCost& c) {
  return "{\"seconds\": " + json_number(c.seconds) + ", \"peak_rss_bytes\": " + std::to_string(c.peak_rss_bytes) +
         ", \"rss_at_start_bytes\": " + std::to_string(c.rss_at_start_bytes) +
         ", \"minor_faults\": " + std::to_string(c.minor_faults) +
         ", \"major_faults\": " + std::to_string(c.major_faults) +
         ", \"voluntary_switches\": " + std::to_string(c.voluntary_switches) +
         ", \"involuntary_switches\": " + std::to_string(c.involuntary_switches) +
         ", \"cpu_seconds\": " + json_number(c.cpu_seconds) +
         ", \"others_cpu_share\": " + json_number(c.others_cpu_share) +
         ", \"load_average\": " + json_number(c.load_average) + "}";
}

// The page of report/report.html with the report's data in place of its
// placeholder; '<' escaped, so that no string in it can close the script.
std::string render_html(const std::string& json) {
  static const std::string kPage =
#include "bench_report_html.inc"
      ;
  std::string data;
  data.reserve(json.size());
  for (char c : json) data += c == '<' ? std::string("\\u003c") : std::string(1, c);
  std::string page = kPage;
  const std::string placeholder = "/*REPORT_DATA*/null";
  page.replace(page.find(placeholder), placeholder.size(), data);
  return page;
}

void write_file(const std::string& path, const std::string& text) {
  OutputFile f(path);
  f.write(text);
  f.commit();
}

}  // namespace

void BenchRun::assess() {
  if (sg.median > 0) edges_per_second = static_cast<double>(m) / sg.median;
  warnings.clear();
  if (sg.samples.size() > 1 && sg.cv > 0.05)
    warnings.push_back("noisy: the SG time's CV is " + percent(sg.cv) + " (over 5%)");
  if (cost.others_cpu_share > 0.10)
    warnings.push_back("busy machine: other processes took " + percent(cost.others_cpu_share) +
                       " of it during the run (over 10%)");
}

std::string BenchRun::json() const {
  std::string j = "{\"dataset\": " + json_string(dataset) + ", \"algo\": " + json_string(algo) +
                  ", \"threads\": " + std::to_string(threads) + ", \"trials\": " + std::to_string(sg.samples.size()) +
                  ", \"warmup\": " + std::to_string(warmup) + ", \"cold\": " + (cold ? "true" : "false") +
                  ", \"n\": " + std::to_string(n) + ", \"m\": " + std::to_string(m) +
                  ", \"instances\": " + std::to_string(instances) + ", \"verified\": " + json_string(verified) + ", \"phases\": {";
  for (std::size_t p = 0; p < phases.size(); ++p)
    j += (p ? ", " : "") + json_string(phases[p].first) + ": " + phases[p].second.json();
  j += "}, \"sg_seconds\": " + sg.json() + ", \"total_seconds\": " + total.json() +
       ", \"floor_seconds\": " + floor.json() + ", \"ratio_samples\": " + ratio.json() +
       ", \"ratio_to_floor\": " + json_number(ratio.median) +
       ", \"edges_per_second\": " + json_number(edges_per_second) +
       ", \"peak_rss_bytes\": " + std::to_string(cost.peak_rss_bytes) + ", \"cost\": " + cost_json(cost) +
       ", \"speedup_vs_1_thread\": " + json_number(speedup_vs_1_thread) +
       ", \"speedup_vs_bgl\": " + json_number(speedup_vs_bgl) + ", \"warnings\": [";
  for (std::size_t w = 0; w < warnings.size(); ++w) j += (w ? ", " : "") + json_string(warnings[w]);
  return j + "]}";
}

void BenchReport::finish() {
  const auto find = [&](const std::string& ds, const std::string& algo, unsigned threads) -> const BenchRun* {
    for (const auto& r : runs)
      if (r.dataset == ds && r.algo == algo && r.threads == threads) return &r;
    return nullptr;
  };
  for (auto& r : runs) {
    if (r.sg.median <= 0) continue;
    if (const BenchRun* one = find(r.dataset, r.algo, 1)) r.speedup_vs_1_thread = one->sg.median / r.sg.median;
    if (const BenchRun* bgl = find(r.dataset, "bgl", 1)) r.speedup_vs_bgl = bgl->sg.median / r.sg.median;
  }
  for (auto& d : datasets) {
    std::map<unsigned, std::vector<double>> floors;
    for (const auto& r : runs)
      if (r.dataset == d.name)
        floors[r.threads].insert(floors[r.threads].end(), r.floor.samples.begin(), r.floor.samples.end());
    for (auto& [t, samples] : floors) d.floor[t] = Summary::of(samples);
  }
}

std::string BenchReport::json() const {
  // One object, documented in docs/OUTPUTS.md ("schema": 4).
  std::string j = "{\n  \"schema\": 4,\n  \"commit\": " + json_string(commit) +
                  ",\n  \"dirty\": " + (commit.ends_with("-dirty") ? "true" : "false") +
                  ",\n  \"command\": " + json_string(command) + ",\n  \"date\": " + json_string(date) +
                  ",\n  \"machine\": {";
  for (std::size_t i = 0; i < machine.size(); ++i)
    j += (i ? ", " : "") + json_string(machine[i].first) + ": " + machine[i].second;
  j += "},\n  \"datasets\": [\n";
  for (std::size_t i = 0; i < datasets.size(); ++i) {
    const auto& d = datasets[i];
    j += "    {\"name\": " + json_string(d.name) + ", \"kind\": " + json_string(d.kind) +
         ", \"size\": " + json_string(d.size) + ", \"file\": " + json_string(d.file) +
         ", \"format\": " + json_string(d.format) + ", \"n\": " + std::to_string(d.n) +
         ", \"m\": " + std::to_string(d.m) + ", \"k\": " + std::to_string(d.k) +
         ", \"layered\": " + (d.layered ? "true" : "false") + ", \"generator\": " + json_string(d.generator) +
         ", \"instances\": " + std::to_string(d.files.size()) + ", \"files\": [";
    for (std::size_t f = 0; f < d.files.size(); ++f) j += (f ? ", " : "") + json_string(d.files[f]);
    j += "], \"floor_seconds\": {";
    bool f = true;
    for (const auto& [t, s] : d.floor) {
      j += (f ? "" : ", ") + std::string("\"") + std::to_string(t) + "\": " + s.json();
      f = false;
    }
    j += "}}" + std::string(i + 1 < datasets.size() ? "," : "") + "\n";
  }
  j += "  ],\n  \"runs\": [\n";
  for (std::size_t i = 0; i < runs.size(); ++i) j += "    " + runs[i].json() + (i + 1 < runs.size() ? "," : "") + "\n";
  j += "  ]\n}\n";
  return j;
}

void BenchReport::write(const std::string& dir) const {
  const std::string j = json();
  write_file(dir + "/bench.json", j);
  write_file(dir + "/report.html", render_html(j));

  std::string csv =
      "dataset,n,m,algo,threads,trials,verified,sg_median_s,sg_mean_s,sg_stddev_s,sg_cv,sg_mad_s,sg_ci95_low_s,"
      "sg_ci95_high_s,sg_min_s,sg_max_s,total_median_s,edges_per_second,peak_rss_bytes,minor_faults,"
      "involuntary_switches,others_cpu_share,floor_median_s,ratio_to_floor,speedup_vs_1_thread,speedup_vs_bgl,"
      "warnings,instances\n";
  for (const auto& r : runs) {
    csv += csv_field(r.dataset) + "," + std::to_string(r.n) + "," + std::to_string(r.m) + "," + csv_field(r.algo) +
           "," + std::to_string(r.threads) + "," + std::to_string(r.sg.samples.size()) + "," + csv_field(r.verified) +
           "," +
           json_number(r.sg.median) + "," + json_number(r.sg.mean) + "," + json_number(r.sg.stddev) + "," +
           json_number(r.sg.cv) + "," + json_number(r.sg.mad) + "," + json_number(r.sg.ci_low) + "," +
           json_number(r.sg.ci_high) + "," + json_number(r.sg.min) + "," + json_number(r.sg.max) + "," +
           json_number(r.total.median) + "," + json_number(r.edges_per_second) + "," +
           std::to_string(r.cost.peak_rss_bytes) + "," + std::to_string(r.cost.minor_faults) + "," +
           std::to_string(r.cost.involuntary_switches) + "," + json_number(r.cost.others_cpu_share) + "," +
           json_number(r.floor.median) + "," + json_number(r.ratio.median) + "," + json_number(r.speedup_vs_1_thread) +
           "," + json_number(r.speedup_vs_bgl) + "," + std::to_string(r.warnings.size()) + "," +
           std::to_string(r.instances) + "\n";
  }
  write_file(dir + "/bench.csv", csv);

  const auto field = [&](const char* key) -> std::string {
    for (const auto& [k, v] : machine)
      if (k == key) return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : v;
    return "?";
  };
  std::string md = "# grundy bench\n\n- machine: " + field("cpu") + ", " + field("cores") + " cores, " +
                   field("memory_bytes") + " bytes of memory, THP " + field("thp_enabled") +
                   "\n- build: " + field("build") + ", -march=" + field("march") + ", " + field("compiler") +
                   ", oneTBB " + field("onetbb") + "\n- commit: " + commit + "\n- date: " + date + "\n- command: `" +
                   command +
                   "`\n\n"
                   "| dataset | N | M | algo | threads | SG median ms (95% CI) | CV | edges/s | × floor | × 1 thread | "
                   "× bgl | peak RSS MiB | others' CPU | verified |\n"
                   "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
  std::string warnings;
  for (const auto& r : runs) {
    char eps[32];
    std::snprintf(eps, sizeof eps, "%.1fM", r.edges_per_second / 1e6);
    const std::string instances = r.instances > 1 ? " (" + std::to_string(r.instances) + " instances)" : "";
    md += "| " + md_cell(r.dataset + instances) + " | " + std::to_string(r.n) + " | " + std::to_string(r.m) + " | " + r.algo + " | " +
          std::to_string(r.threads) + " | " + ms(r.sg.median) + " (" + ms(r.sg.ci_low) + "-" + ms(r.sg.ci_high) +
          ") | " + percent(r.sg.cv) + " | " + eps + " | " + ratio(r.ratio.median) + " | " +
          ratio(r.speedup_vs_1_thread) + " | " + ratio(r.speedup_vs_bgl) + " | " +
          std::to_string(r.cost.peak_rss_bytes >> 20) + " | " + percent(r.cost.others_cpu_share) + " | " + r.verified +
          (r.warnings.empty() ? "" : " ⚠") + " |\n";
    for (const auto& w : r.warnings)
      warnings += "- " + r.dataset + ", " + r.algo + ", " + std::to_string(r.threads) +
                  (r.threads == 1 ? " thread: " : " threads: ") + w + "\n";
  }
  md +=
      "\nSG: the solver's phases (layering and mex; level's depth-first pass on up to 2 threads, below 2^18 "
      "nodes from 2^17 edges or 8 a node, from 2^16 nodes whatever the edges, from 2^12 where sampled "
      "targets repeat, or after rounds that turn out deep, and on 1 thread below 5 * 2^18 nodes where sampled targets "
      "repeat; or the whole serial / Boost.Graph solve), median of the "
      "timed trials after the warm-up (with N instances, each trial the mean of N distinct graphs, each solved "
      "once), with a distribution-free 95% interval for the median. × floor: each "
      "trial's SG time over a pass that reads every edge and gathers its target's value, timed just before "
      "it at the same thread count (median of the pairs). × 1 thread, × bgl: ratios of SG medians in this "
      "run. Peak RSS: the run's own high-water mark. Others' CPU: the share of the machine that other "
      "processes took during the run.\n";
  if (!warnings.empty()) md += "\n## Warnings\n\n" + warnings;
  write_file(dir + "/bench.md", md);
}

void BenchReport::write_gbench(const std::string& dir) const {
  const auto field = [&](const char* key) -> std::string {
    for (const auto& [k, v] : machine)
      if (k == key) return v;
    return "null";
  };
  std::string j = "{\n  \"context\": {\"date\": " + json_string(date) + ", \"host_name\": " + field("hostname") +
                  ", \"executable\": " + json_string(command) + ", \"num_cpus\": " + field("cores") +
                  ", \"mhz_per_cpu\": 0, \"cpu_scaling_enabled\": false, \"library_build_type\": " +
                  json_string(field("build") == "\"Debug\"" ? "debug" : "release") +
                  ", \"grundy_commit\": " + json_string(commit) + "},\n  \"benchmarks\": [\n";
  bool first = true;
  std::size_t family = 0;
  const auto family_of = [&](const std::string& name, const Summary& s, double edges) {
    const std::size_t reps = s.samples.size();
    const auto entry = [&](const std::string& run_type, const std::string& aggregate, std::size_t rep, double v) {
      j += std::string(first ? "" : ",\n") +
           "    {\"name\": " + json_string(aggregate.empty() ? name : name + "_" + aggregate) +
           ", \"family_index\": " + std::to_string(family) +
           ", \"per_family_instance_index\": 0, \"run_name\": " + json_string(name) + ", \"run_type\": \"" + run_type +
           "\", \"repetitions\": " + std::to_string(reps) + ", \"repetition_index\": " + std::to_string(rep) +
           ", \"threads\": 1, \"iterations\": 1" +
           (aggregate.empty() ? "" : ", \"aggregate_name\": " + json_string(aggregate)) +
           ", \"real_time\": " + json_number(v * 1e3) + ", \"cpu_time\": " + json_number(v * 1e3) +
           ", \"time_unit\": \"ms\"" +
           (edges > 0 && v > 0 && aggregate != "cv" && aggregate != "stddev"
                ? ", \"edges_per_second\": " + json_number(edges / v)
                : "") +
           "}";
      first = false;
    };
    for (std::size_t i = 0; i < reps; ++i) entry("iteration", "", i, s.samples[i]);
    entry("aggregate", "mean", 0, s.mean);
    entry("aggregate", "median", 0, s.median);
    entry("aggregate", "stddev", 0, s.stddev);
    ++family;
  };
  for (const auto& r : runs) {
    const std::string name = r.dataset + "/" + r.algo + "/threads:" + std::to_string(r.threads);
    family_of(name, r.sg, static_cast<double>(r.m));
    for (const auto& [phase, summary] : r.phases) family_of(name + "/" + phase, summary, 0);
  }
  j += "\n  ]\n}\n";
  write_file(dir + "/gbench.json", j);
}

RunLog::RunLog(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "a")) {
  if (file_ == nullptr) throw InputError(path + ": cannot open the run log: " + std::strerror(errno));
}

RunLog::~RunLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void RunLog::append(const BenchRun& run) {
  const std::string line = run.json() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw InputError(path_ + ": cannot write the run log: " + std::strerror(errno));
}

}  // namespace grundy::cli
