// grundy solve [FILE|-]: one instance in, "win" or "lose" out.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <type_traits>

#include "command.hpp"
#include "grundy/core/memory_budget.hpp"
#include "perf_control.hpp"
#include "phase_progress.hpp"
#include "profile_report.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/formats/sg_file.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/game.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/primitives/traced_workers.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::cli {
namespace {

struct SolveOptions {
  std::string input = "-";
  std::string sg_out;
  std::string sg_format = "auto";
  bool move = false;
  unsigned threads = 0;
  std::string algo = "auto";
  bool verify = false;
  bool stats = false;
  std::string stats_json;
  std::string perf_control;
  std::string profile;
  std::int64_t plant_error = -1;  // hidden: corrupt one node's value (tests --verify)
  std::size_t trials = 1;
};

// GAPBS's report lines on stderr ("Trial Time:          0.01201"), so that
// stdout keeps the verdict alone.
void report_line(const char* what, const std::string& value) { std::fprintf(stderr, "%-21s%s\n", what, value.c_str()); }
std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5f", s);
  return buf;
}

SgValues planted(SgValues sg, std::int64_t node) {
  if (node < 0 || static_cast<std::uint64_t>(node) >= sg.size()) return sg;
  sg.visit([&](auto values) { values[static_cast<std::size_t>(node)] ^= 1; });
  return sg;
}

// Every output file is opened before the work starts, so that a bad path
// fails first and stdout stays empty, and none may replace the input.
struct SolveOutputs {
  std::optional<OutputFile> sg, stats_json, profile;

  explicit SolveOutputs(const SolveOptions& o) {
    const std::pair<const char*, const std::string*> named[] = {
        {"--sg-out", &o.sg_out}, {"--stats-json", &o.stats_json}, {"--profile", &o.profile}};
    for (const auto& [option, path] : named)
      if (!path->empty() && same_file(*path, o.input))
        throw InputError(std::string(option) + " " + *path + ": that is the input file; name another");
    if (!o.sg_out.empty() && !names_stdout(o.sg_out)) sg.emplace(o.sg_out);
    if (!o.stats_json.empty()) stats_json.emplace(o.stats_json);
    if (!o.profile.empty()) profile.emplace(o.profile);
  }
};

int solve(const SolveOptions& o) {
  const ParallelConfig pc{resolve_threads(o.threads)};
  SolveOutputs outputs(o);
  // --profile and the stats: every thread's spans and the counters go to a
  // recorder for the run, its tracks named as oneTBB's workers enter the arena.
  std::optional<PerfControl> perf;  // opened first: a bad FIFO fails before any work
  if (!o.perf_control.empty()) perf.emplace(o.perf_control);
  std::optional<trace::Recorder> recorder;
  if (!o.profile.empty() || o.stats || !o.stats_json.empty()) recorder.emplace().start();
  const TracedWorkers workers;
  PhaseTimer timer;
  timer.log_layers = recorder.has_value();
  timer.start("map input");
  if (o.input == "-" && ::isatty(STDIN_FILENO) == 1 && !quiet())
    std::fprintf(stderr, "grundy: solve: reading an instance from standard input (the terminal); end it with Ctrl-D\n");
  const MappedFile in(o.input);
  // (Not with --trials: its lines are the measurement.)
  PhaseProgress progress("solve", o.trials > 1 ? 0 : in.bytes().size(), timer);
  const LoadedGame game = load_game(in.bytes(), in.name(), pc, &timer);
  const CsrView graph = game.view.graph;
  require_memory(graph_bytes(graph) + solve_memory_bytes(graph.n, graph.m, parse_algo(o.algo), o.verify), in.name(),
                 std::to_string(graph.n) + " nodes and " + std::to_string(graph.m) + " edges with --algo " + o.algo +
                     (o.verify ? " --verify" : ""));
  // --trials N: the solve N times (the input loaded once), a line each and
  // the average; the values of the last are the answer.
  SgValues sg;
  double trial_total = 0;
  if (perf) perf->enable();
  for (std::size_t trial = 0; trial < o.trials; ++trial) {
    const auto start = std::chrono::steady_clock::now();
    sg = naming_cycles(in.name(), [&] {
      return planted(solve_sg(graph, parse_algo(o.algo), pc, trial + 1 == o.trials ? &timer : nullptr, game.layers),
                     o.plant_error);
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    trial_total += seconds;
    if (o.trials > 1) report_line("Trial Time:", seconds_text(seconds));
  }
  if (perf) perf->disable();
  if (o.trials > 1) report_line("Average Time:", seconds_text(trial_total / static_cast<double>(o.trials)));
  if (o.verify) {
    const auto bad = verify_sg(graph, sg, pc, &timer);
    progress.finish();
    if (bad) {
      const std::string why = describe_mismatch(*bad, std::uint64_t{game.user_id(bad->node)} + 1);
      report_line("Verification:", "FAIL");
      std::fprintf(stderr, "grundy: %s: %s\n", in.name().c_str(), why.c_str());
      return kMismatch;
    }
    report_line("Verification:", "PASS (" + describe_verified(graph.n, graph.m) + ")");
  }
  progress.finish();
  timer.start("xor");
  const sg_t total = nim_sum(sg, game.view.tokens);
  timer.stop();

  // Every file is published before anything reaches stdout, so a failure
  // there leaves stdout empty, as every error must.
  const SgFileFormat sg_format = sg_file_format(o.sg_format, o.sg_out);
  const auto write_sg = [&](OutputFile& f) { write_sg_file(f, sg, game.original_ids, sg_format); };
  if (outputs.sg) {
    write_sg(*outputs.sg);
    outputs.sg->commit();
  }
  if (recorder) recorder->stop();
  const ProfileFacts facts{"solve", in.name(), o.algo, pc.threads, graph, recorder ? MexPaths::of(graph) : MexPaths{}};
  std::optional<RunStats> stats;
  if (o.stats || outputs.stats_json) stats = analyze(timer, &*recorder, facts);
  if (outputs.stats_json) write_stats_json(*outputs.stats_json, *stats, facts);
  if (outputs.profile) write_profile(*outputs.profile, &timer, *recorder, facts);
  OutputFile out("-");
  out.write(total != 0 ? "win\n" : "lose\n");
  if (o.move) out.write(move_line(game.view, sg, game.original_ids) + "\n");
  if (!o.sg_out.empty() && names_stdout(o.sg_out)) write_sg(out);
  out.commit();
  if (o.stats) print_stats(*stats, facts);
  return kOk;
}

}  // namespace

Command add_solve(CLI::App& root) {
  auto opts = std::make_shared<SolveOptions>();
  CLI::App* sub = root.add_subcommand("solve", "solve one instance: prints win or lose");
  sub->add_option("input", opts->input,
                  "classic text or .gcsr (told apart by content), or an edge list (.el) (\"-\": stdin)")
      ->type_name("FILE")
      ->default_str("-");
  sub->add_option("--sg-out", opts->sg_out,
                  "write every node's SG value, nodes 1..N: a line each, or binary by --sg-format (\"-\": "
                  "stdout, after the verdict)")
      ->type_name("FILE");
  sub->add_option("--sg-format", opts->sg_format,
                  "--sg-out's format: auto (npy for a .npy path, else text), text (a value a line), u16 or u32 "
                  "(raw little-endian, a value a node), npy (NumPy, u16 or u32 as stored)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember(sg_format_names()))
      ->default_str("auto");
  sub->add_flag("--move", opts->move,
                "second line: one winning move \"move <token> <from> <to>\" (1-based), or "
                "\"move none\"");
  add_algo_option(*sub, opts->algo);
  sub->add_flag("--verify", opts->verify,
                "recompute every SG value with the Boost.Graph baseline and check the mex rule "
                "at every node; exit 3 on a mismatch");
  sub->add_flag("--stats", opts->stats,
                "print each phase's time and edges/s, each worker's busy and idle time in the parallel phases, and "
                "the mex paths' shares, on stderr");
  sub->add_option("--stats-json", opts->stats_json,
                  "write the same as JSON (\"schema\": 1; fields in docs/PROFILING.md)")
      ->type_name("FILE");
  sub->add_option("--perf-control", opts->perf_control,
                  "CTL,ACK: FIFOs of `perf stat|record --control fifo:CTL,ACK --delay=-1`; perf counts only the solve "
                  "(enabled after loading, disabled before the output)")
      ->type_name("CTL,ACK");
  sub->add_option("--profile", opts->profile,
                  "write phase and per-layer timings as a Chrome trace (open in Perfetto or chrome://tracing)")
      ->type_name("FILE");
  sub->add_option("--plant-error", opts->plant_error,
                  "testing only: corrupt this 0-based node's SG value after solving")
      ->group("");
  add_count(*sub, "--trials", opts->trials,
            "solve this many times (the input loaded once): a \"Trial Time:\" line each and their average on "
            "stderr, GAPBS style",
            1, 100000)
      ->default_val(1);
  add_threads_option(*sub, opts->threads);
  add_quiet_option(*sub);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return solve(*opts); }); }};
}

}  // namespace grundy::cli
