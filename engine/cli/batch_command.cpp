// grundy batch PATH...: thousands of instances in one process (or across
// grundy-mpi's ranks). A client of the public API's grundy::batch: this file
// adds the options, the lines (text or JSON), progress and the summary.
#include <sys/resource.h>

#include <chrono>
#include <optional>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "grundy/primitives/traced_workers.hpp"
#include "profile_report.hpp"
#include "grundy/core/game.hpp"
#include "grundy/grundy.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/io/output_file.hpp"
#include "json.hpp"
#include "grundy/solve/solver.hpp"
#include "progress.hpp"

namespace grundy::cli {
namespace {

struct BatchCliOptions {
  std::vector<std::string> inputs;
  bool json = false;
  std::string algo = "auto";
  bool verify = false;
  bool move = false;
  unsigned threads = 0;
  std::string profile;
  std::string loopy;
  std::size_t stream_window = 0;  // hidden: a stream's window in bytes (tests use tiny ones)
};

const char* verdict(const BatchResult& r) {
  if (r.verdict) return verdict_word(*r.verdict);
  return r.mismatch ? "mismatch" : "error";
}

// A winning move as the lines give it: 1-based, as the user numbers nodes.
std::optional<UserMove> user_move(const BatchResult& r) {
  if (!r.move) return std::nullopt;
  return UserMove{r.move->token + 1, std::uint64_t{r.move->from} + 1, std::uint64_t{r.move->to} + 1};
}

// A name on a text line: a tab, a line end or a backslash in it would
// break the line's columns, so they (and every control byte) are escaped.
std::string escaped_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string text_line(const BatchResult& r, bool with_move) {
  std::string line = escaped_name(r.name) + "\t" + verdict(r);
  if (!r.error.empty()) line += "\t" + r.error;
  if (with_move && r.error.empty() && r.solved) line += "\t" + move_text(user_move(r));
  return line + "\n";
}

// A JSON line: every field present, null where the instance did not get
// that far; a name that is not UTF-8 gets its bytes in hex as well.
std::string json_line(const BatchResult& r, bool with_move) {
  const auto number = [](bool known, std::uint64_t v) { return known ? std::to_string(v) : std::string("null"); };
  std::string line = "{\"name\": " + json_string(r.name) + ", \"path\": " + json_string(r.path);
  if (!valid_utf8(r.path)) line += ", \"path_hex\": " + json_string(hex_bytes(r.path));
  line += ", \"index\": " + number(r.index != 0, r.index) + ", \"line\": " + number(r.line != 0, r.line) +
          ", \"verdict\": \"" + verdict(r) + "\", \"xor\": " + number(r.solved, r.nim_sum) +
          ", \"n\": " + number(r.parsed, r.nodes) + ", \"m\": " + number(r.parsed, r.edges) +
          ", \"k\": " + number(r.parsed, r.tokens) + ", \"depth\": " + number(r.depth.has_value(), r.depth.value_or(0)) +
          ", \"microseconds\": " + json_number(r.microseconds) +
          ", \"error\": " + (r.error.empty() ? std::string("null") : json_string(r.error));
  if (with_move) {
    const std::optional<UserMove> m = user_move(r);
    line += ", \"move\": ";
    line += m ? "{\"token\": " + std::to_string(m->token) + ", \"from\": " + std::to_string(m->from) +
                    ", \"to\": " + std::to_string(m->to) + "}"
              : std::string("null");
  }
  return line + "}\n";
}

unsigned long long peak_rss_mib() {
  struct rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<unsigned long long>(u.ru_maxrss) >> 10;  // KiB
}

int run_batch_command(const BatchCliOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<trace::Recorder> recorder;  // --profile: a span per instance, on its worker's track
  std::optional<OutputFile> profile_out;    // opened first: a bad path fails before any work
  if (!o.profile.empty() && distribution().ranks > 1)
    throw UsageError(
        "--profile traces the threads of one process; across ranks, profile one with grundy batch "
        "--profile");
  if (!o.profile.empty()) {
    profile_out.emplace(o.profile);
    recorder.emplace(300000, false).start();
  }
  const TracedWorkers workers;
  const Options api{.engine = engine_named(o.algo), .threads = resolve_threads(o.threads), .loopy = !o.loopy.empty(),
                    .verify = o.verify};
  const LoopyMode loopy = parse_loopy_mode(o.loopy);
  if (loopy != LoopyMode::off && o.algo != "auto")
    throw UsageError("--loopy has its own engine; --algo " + o.algo + " solves DAGs only");
  const Distribution& where = distribution();
  Progress progress("batch");
  // Lines leave as their instances finish (in input order), one write per
  // chunk of instances, so a long batch or a pipe shows its results at once.
  OutputFile out("-");
  std::string lines;
  BatchSettings settings;
  settings.moves = o.move;
  settings.outcome_only = loopy == LoopyMode::outcome;
  settings.stream_window = o.stream_window;
  settings.empty_folder = [&](const std::string& folder) {
    if (where.leads)
      std::fprintf(stderr, "grundy: batch: warning: %s holds no instance files (*.in, *.txt, *.gcsr, *.el)\n",
                   escaped_name(folder).c_str());
  };
  settings.progress = [&](const BatchTotals& so_far) {
    out.write(lines);
    out.flush_now();
    lines.clear();
    progress.update(so_far.bytes_read, so_far.total_bytes,
                    {grouped(so_far.instances) + " instances", grouped(so_far.errors) + " errors"}, "B");
  };
  const BatchTotals counts = where.batch(
      o.inputs, api, [&](const BatchResult& r) { lines += o.json ? json_line(r, o.move) : text_line(r, o.move); },
      settings);
  out.write(lines);
  out.commit();
  progress.finish();
  if (recorder) {
    recorder->stop();
    std::string names;
    for (const auto& in : o.inputs) names += (names.empty() ? "" : " ") + in;
    write_profile(*profile_out, nullptr, *recorder, {"batch", names, o.algo, api.threads, {}});
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!quiet()) {
    std::fprintf(
        stderr,
        "grundy: batch: %llu instance%s: %llu win, %llu lose%s, %llu errors%s%s in %.3f s "
        "(%.0f instances/s, %.1f MB/s, %s%u threads, %llu MiB peak%s)\n",
        static_cast<unsigned long long>(counts.instances), counts.instances == 1 ? "" : "s",
        static_cast<unsigned long long>(counts.wins), static_cast<unsigned long long>(counts.losses),
        loopy != LoopyMode::off ? (", " + std::to_string(counts.draws) + " draw").c_str() : "",
        static_cast<unsigned long long>(counts.errors),
        counts.mismatches ? (", " + std::to_string(counts.mismatches) + " verification mismatches").c_str() : "",
        o.verify ? ("; verified: " +
                    std::string(loopy != LoopyMode::off ? "Fraenkel's conditions + retrograde outcomes"
                                                                : "Boost.Graph baseline + mex rule") +
                    ", " + std::to_string(counts.verified) + " instances, " + std::to_string(counts.verified_nodes) +
                    " nodes")
                       .c_str()
                 : "",
        seconds, static_cast<double>(counts.instances) / seconds, static_cast<double>(counts.bytes) / seconds / 1e6,
        where.ranks > 1 ? (std::to_string(where.ranks) + " ranks x ").c_str() : "", api.threads, peak_rss_mib(),
        where.ranks > 1 ? " on rank 0" : "");
  }
  if (counts.mismatches) return kMismatch;
  return counts.errors ? kBadInput : kOk;
}

}  // namespace

Command add_batch(CLI::App& root) {
  auto opts = std::make_shared<BatchCliOptions>();
  CLI::App* sub = root.add_subcommand("batch",
                                      "solve many instances: files, folders (*.in, *.txt, *.gcsr, *.el) and streams of "
                                      "concatenated instances; one line per instance, in input order");
  sub->add_option("inputs", opts->inputs, "files, folders (*.in, *.txt, *.gcsr, *.el), or - for stdin")
      ->type_name("PATH")
      ->required();
  sub->add_flag("--json", opts->json,
                "JSON lines: name, path, index, line, verdict, xor, n, m, k, depth, microseconds, error (and move); "
                "null where unknown (docs/OUTPUTS.md)");
  add_algo_option(*sub, opts->algo);
  sub->add_flag("--verify", opts->verify,
                "check every instance against the Boost.Graph baseline (exit 3 on a mismatch)");
  sub->add_flag("--move", opts->move, "add one winning move per instance (\"move none\" when lost)");
  add_loopy_option(*sub, opts->loopy, "each instance's win, lose or draw");
  add_quiet_option(*sub);
  add_count(*sub, "--stream-window", opts->stream_window, "testing only: read a stream this many bytes at a time", 1)
      ->group("");
  sub->add_option("--profile", opts->profile,
                  "write a Chrome trace (Perfetto, chrome://tracing): a span per instance on the worker that solved "
                  "it, with n and m")
      ->type_name("FILE");
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_batch_command(*opts); }); }};
}

}  // namespace grundy::cli
