#include "bench_compare.hpp"

// Property Tree still includes the old boost/bind.hpp; its placeholders stay unused.
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

#include "bench_stats.hpp"
#include "command.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/output_file.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

using boost::property_tree::ptree;

// A report's samples: run key ("dataset, algo, N threads") -> phase ("sg"
// or a phase name) -> seconds of each timed trial.
using ReportSamples = std::map<std::string, std::map<std::string, std::vector<double>>>;

std::vector<double> samples_of(const ptree& summary) {
  std::vector<double> out;
  if (const auto list = summary.get_child_optional("samples"))
    for (const auto& [_, v] : *list) out.push_back(std::strtod(v.data().c_str(), nullptr));
  return out;
}

ReportSamples read_report(const std::string& where) {
  std::string path = where;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) path += "/bench.json";
  ptree report;
  try {
    boost::property_tree::read_json(path, report);
  } catch (const boost::property_tree::json_parser_error& e) {
    throw InputError(path + ": not a grundy bench report: " + e.message() + " (line " + std::to_string(e.line()) + ")");
  }
  if (std::atoi(report.get<std::string>("schema", "0").c_str()) < 3)
    throw InputError(path + ": a report of schema " + report.get<std::string>("schema", "?") +
                     "; compare needs schema 3 or later (trial samples)");
  ReportSamples out;
  for (const auto& [_, run] : report.get_child("runs")) {
    const std::string key = run.get<std::string>("dataset") + ", " + run.get<std::string>("algo") + ", " +
                            run.get<std::string>("threads") +
                            (run.get<std::string>("threads") == "1" ? " thread" : " threads");
    out[key]["sg"] = samples_of(run.get_child("sg_seconds"));
    // Reports before the bench loaded through the API called "map input" "map".
    for (const auto& [phase, summary] : run.get_child("phases"))
      out[key][phase == "map" ? "map input" : phase] = samples_of(summary);
  }
  return out;
}

double median(std::vector<double> v) { return Summary::of(std::move(v)).median; }

}  // namespace

int run_compare(const CompareOptions& o) {
  const ReportSamples a = read_report(o.a), b = read_report(o.b);
  std::printf("%-44s %-14s %12s %12s %8s %9s  %s\n", "run", "phase", "A median", "B median", "B / A", "p", "verdict");
  std::string json = "[";
  bool failed = false;
  std::size_t compared = 0;
  for (const auto& [key, phases] : a) {
    const auto other = b.find(key);
    if (other == b.end()) continue;
    for (const auto& [phase, sa] : phases) {
      const auto sb = other->second.find(phase);
      if (sb == other->second.end() || sa.empty() || sb->second.empty()) continue;
      const double ma = median(sa), mb = median(sb->second);
      const double ratio = ma > 0 ? mb / ma : 0;
      const double p = mann_whitney_p(sa, sb->second);
      const char* verdict = p >= o.alpha ? "no change" : ratio > 1 ? "slower" : "faster";
      std::printf("%-44s %-14s %10.3f ms %9.3f ms %8.3f %9.4f  %s\n", key.c_str(), phase.c_str(), ma * 1e3, mb * 1e3,
                  ratio, p, verdict);
      if (phase == "sg" && o.fail_above > 0 && p < o.alpha && ratio > o.fail_above) failed = true;
      json += std::string(compared++ ? ",\n " : "") + "{\"run\": " + json_string(key) +
              ", \"phase\": " + json_string(phase) + ", \"a_median\": " + std::to_string(ma) +
              ", \"b_median\": " + std::to_string(mb) + ", \"ratio\": " + std::to_string(ratio) +
              ", \"p\": " + std::to_string(p) + ", \"verdict\": " + json_string(verdict) + "}";
    }
  }
  json += "]\n";
  if (compared == 0) throw InputError(o.a + " and " + o.b + " share no run (dataset, engine and threads)");
  if (!o.json.empty()) {
    OutputFile f(o.json);
    f.write(json);
    f.commit();
  }
  if (failed)
    std::fprintf(stderr, "grundy: bench compare: a significant SG slowdown past %.3fx (alpha %.2f)\n", o.fail_above,
                 o.alpha);
  return failed ? kBadInput : kOk;
}

}  // namespace grundy::cli
