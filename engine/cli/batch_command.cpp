// grundy batch PATH...: thousands of instances in one process.
#include <chrono>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "grundy/batch.hpp"
#include "grundy/output_file.hpp"
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
  if (!r.message.empty()) line += ", \"error\": " + json_string(r.message);
  if (!r.move.empty()) line += ", \"move\": " + json_string(r.move);
  return line + "}\n";
}

int run_batch_command(const BatchCliOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  BatchOptions options;
  options.pc = {resolve_threads(o.threads)};
  options.verify = o.verify;
  options.move = o.move;
  const std::vector<std::string> files = expand_batch_inputs(o.inputs);
  Progress progress("batch", 0);
  const auto results = run_batch(files, options, [&](std::size_t done, std::size_t total) {
    if (o.quiet) return;
    progress.set_total(total);
    progress.update(done);
  });
  progress.finish();

  OutputFile out("-");
  std::size_t wins = 0, losses = 0, errors = 0, mismatches = 0;
  std::uint64_t bytes = 0;
  for (const auto& r : results) {
    out.write(o.json ? json_line(r) : text_line(r));
    wins += r.status == InstanceResult::Status::win;
    losses += r.status == InstanceResult::Status::lose;
    errors += r.status == InstanceResult::Status::error;
    mismatches += r.status == InstanceResult::Status::mismatch;
    bytes += r.bytes;
  }
  out.commit();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!o.quiet) {
    std::fprintf(stderr,
                 "grundy: batch: %zu instances: %zu win, %zu lose, %zu errors%s in %.3f s "
                 "(%.0f instances/s, %.1f MB/s, %u threads)\n",
                 results.size(), wins, losses, errors,
                 mismatches ? (", " + std::to_string(mismatches) + " verification mismatches").c_str() : "",
                 seconds, static_cast<double>(results.size()) / seconds,
                 static_cast<double>(bytes) / seconds / 1e6, options.pc.threads);
  }
  if (mismatches) return kMismatch;
  return errors ? kBadInput : kOk;
}

}  // namespace

Command add_batch(CLI::App& root) {
  auto opts = std::make_shared<BatchCliOptions>();
  CLI::App* sub = root.add_subcommand(
      "batch", "solve many instances: files, folders (*.in, *.txt, *.gcsr) and streams of "
               "concatenated instances; one line per instance, in input order");
  sub->add_option("inputs", opts->inputs, "files, folders, or - for stdin")->required();
  sub->add_flag("--json", opts->json,
                "JSON lines: name, verdict, xor, n, m, k, depth, microseconds (and error, move)");
  sub->add_flag("--verify", opts->verify, "check every instance against the Boost.Graph baseline (exit 3 on a mismatch)");
  sub->add_flag("--move", opts->move, "add one winning move per instance (\"move none\" when lost)");
  sub->add_flag("-q,--quiet", opts->quiet, "no progress bar and no summary on stderr");
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_batch_command(*opts); }); }};
}

}  // namespace grundy::cli
