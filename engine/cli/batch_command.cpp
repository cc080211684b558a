// grundy batch PATH...: thousands of instances in one process.
#include <chrono>
#include <optional>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "grundy/primitives/traced_workers.hpp"
#include "profile_report.hpp"
#include "grundy/jobs/batch.hpp"
#include "grundy/io/output_file.hpp"
#include "json.hpp"
#include "progress.hpp"

namespace grundy::cli {
namespace {

struct BatchCliOptions {
  std::vector<std::string> inputs;
  bool json = false;
  bool quiet = false;
  bool verify = false;
  bool move = false;
  unsigned threads = 0;
  std::string profile;
};

const char* verdict(InstanceResult::Status s) {
  switch (s) {
    case InstanceResult::Status::win: return "win";
    case InstanceResult::Status::lose: return "lose";
    case InstanceResult::Status::error: return "error";
    case InstanceResult::Status::mismatch: return "mismatch";
  }
  return "?";
}

std::string text_line(const InstanceResult& r) {
  std::string line = r.name + "\t" + verdict(r.status);
  if (!r.message.empty()) line += "\t" + r.message;
  if (!r.move.empty() && r.message.empty()) line += "\t" + r.move;
  return line + "\n";
}

std::string json_line(const InstanceResult& r) {
  char nums[256];
  std::snprintf(nums, sizeof nums,
                "\"xor\": %u, \"n\": %llu, \"m\": %llu, \"k\": %llu, \"depth\": %llu, \"microseconds\": %.1f",
                r.nim_sum, static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.m),
                static_cast<unsigned long long>(r.k), static_cast<unsigned long long>(r.depth), r.microseconds);
  std::string line = "{\"name\": " + json_string(r.name) + ", \"verdict\": \"" + verdict(r.status) + "\", " + nums;
  if (r.line != 0) line += ", \"line\": " + std::to_string(r.line);
  if (!r.message.empty()) line += ", \"error\": " + json_string(r.message);
  if (!r.move.empty()) line += ", \"move\": " + json_string(r.move);
  return line + "}\n";
}

int run_batch_command(const BatchCliOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<trace::Recorder> recorder;  // --profile: a span per instance, on its worker's track
  if (!o.profile.empty()) recorder.emplace(300000, false).start();
  const TracedWorkers workers;
  BatchOptions options;
  options.pc = {resolve_threads(o.threads)};
  options.verify = o.verify;
  options.move = o.move;
  const std::vector<BatchInput> inputs = expand_batch_inputs(o.inputs);
  Progress progress("batch", 0);
  // Lines leave as their instances finish (in input order), one write per
  // chunk of instances, so a long batch or a pipe shows its results at once.
  OutputFile out("-");
  std::string lines;
  const BatchCounts counts = run_batch(
      inputs, options, [&](const InstanceResult& r) { lines += o.json ? json_line(r) : text_line(r); },
      [&](std::size_t done, std::size_t total) {
        out.write(lines);
        out.flush_now();
        lines.clear();
        if (o.quiet) return;
        progress.set_total(total);
        progress.update(done);
      });
  out.write(lines);
  out.commit();
  progress.finish();
  if (recorder) {
    recorder->stop();
    std::string names;
    for (const auto& in : o.inputs) names += (names.empty() ? "" : " ") + in;
    write_profile(o.profile, nullptr, *recorder, {"batch", names, "level", options.pc.threads, {}});
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!o.quiet) {
    std::fprintf(
        stderr,
        "grundy: batch: %llu instances: %llu win, %llu lose, %llu errors%s in %.3f s "
        "(%.0f instances/s, %.1f MB/s, %u threads)\n",
        static_cast<unsigned long long>(counts.instances), static_cast<unsigned long long>(counts.wins),
        static_cast<unsigned long long>(counts.losses), static_cast<unsigned long long>(counts.errors),
        counts.mismatches ? (", " + std::to_string(counts.mismatches) + " verification mismatches").c_str() : "",
        seconds, static_cast<double>(counts.instances) / seconds, static_cast<double>(counts.bytes) / seconds / 1e6,
        options.pc.threads);
  }
  if (counts.mismatches) return kMismatch;
  return counts.errors ? kBadInput : kOk;
}

}  // namespace

Command add_batch(CLI::App& root) {
  auto opts = std::make_shared<BatchCliOptions>();
  CLI::App* sub = root.add_subcommand("batch",
                                      "solve many instances: files, folders (*.in, *.txt, *.gcsr) and streams of "
                                      "concatenated instances; one line per instance, in input order");
  sub->add_option("inputs", opts->inputs, "files, folders, or - for stdin")->required();
  sub->add_flag("--json", opts->json, "JSON lines: name, verdict, xor, n, m, k, depth, microseconds (and error, move)");
  sub->add_flag("--verify", opts->verify,
                "check every instance against the Boost.Graph baseline (exit 3 on a mismatch)");
  sub->add_flag("--move", opts->move, "add one winning move per instance (\"move none\" when lost)");
  sub->add_flag("-q,--quiet", opts->quiet, "no progress bar and no summary on stderr");
  sub->add_option("--profile", opts->profile,
                  "write a Chrome trace (Perfetto, chrome://tracing): a span per instance on the worker that solved "
                  "it, with n and m");
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_batch_command(*opts); }); }};
}

}  // namespace grundy::cli
