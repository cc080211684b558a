// grundy solve [FILE|-]: one instance in, "win" or "lose" out. A client of
// the public API (grundy/grundy.hpp): the graph is loaded or generated, its
// values computed and checked, and the answer taken through it; this file
// adds the command's options, outputs, trials, stats and profile.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <type_traits>

#include "api_views.hpp"
#include "command.hpp"
#include "solve_options.hpp"
#include "bench_inputs.hpp"
#include "grundy/api/timer_observer.hpp"
#include "grundy/grundy.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/core/memory_budget.hpp"
#include "perf_control.hpp"
#include "phase_progress.hpp"
#include "profile_report.hpp"
#include "grundy/formats/loopy_file.hpp"
#include "grundy/formats/sg_file.hpp"
#include "grundy/core/game.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/primitives/traced_workers.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::cli {
namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5f", s);
  return buf;
}

// Every output file is opened before the work starts, so that a bad path
// fails first and stdout stays empty, and none may replace the input.
struct SolveOutputs {
  std::optional<OutputFile> sg, stats_json, profile, outcomes;

  explicit SolveOutputs(const SolveOptions& o) {
    const std::pair<const char*, const std::string*> named[] = {{"--sg-out", &o.sg_out},
                                                                {"--stats-json", &o.stats_json},
                                                                {"--profile", &o.profile},
                                                                {"--outcome-out", &o.outcome_out}};
    for (const auto& [option, path] : named)
      if (!path->empty() && same_file(*path, o.input))
        throw InputError(std::string(option) + " " + *path + ": that is the input file; name another");
    if (!o.sg_out.empty() && !names_stdout(o.sg_out)) sg.emplace(o.sg_out);
    if (!o.stats_json.empty()) stats_json.emplace(o.stats_json);
    if (!o.profile.empty()) profile.emplace(o.profile);
    if (!o.outcome_out.empty() && !names_stdout(o.outcome_out)) outcomes.emplace(o.outcome_out);
  }
};

// The options that --loopy changes the meaning of, checked before any work.
void check_loopy_options(const SolveOptions& o) {
  if (o.loopy.empty()) {
    if (!o.outcome_out.empty()) throw UsageError("--outcome-out needs --loopy (on a DAG every node wins or loses)");
    return;
  }
  if (o.algo != "auto") throw UsageError("--loopy has its own engine; --algo " + o.algo + " solves DAGs only");
  if (!o.profile.empty() || !o.stats_json.empty())
    throw UsageError("--profile and --stats-json trace the DAG engine's phases; with --loopy, --stats reports the stages");
  if (o.loopy == "outcome" && !o.sg_out.empty())
    throw UsageError("--sg-out needs the values: --loopy, not --loopy=outcome");
  if (o.sg_format != "auto" && o.sg_format != "text")
    throw UsageError("--sg-format " + o.sg_format + ": values of games with cycles (inf:K) are written as text only");
}

// Writes to the file opened before the work, or to stdout after the verdict.
template <class Write>
void publish(std::optional<OutputFile>& file, const std::string& path, OutputFile& out, const Write& write) {
  if (file) {
    write(*file);
    file->commit();
  } else if (!path.empty()) {
    write(out);
  }
}

void print_loopy_stats(const PhaseTimer& timer, const LoopyStats& st, const CsrView& graph) {
  for (const PhaseTimer::Phase& p : timer.phases())
    std::fprintf(stderr, "  %-12s %10.3f ms\n", p.name.c_str(), p.seconds * 1e3);
  std::fprintf(stderr, "  transpose    %10.1f MiB (%llu nodes, %llu edges)\n", static_cast<double>(st.transpose_bytes) / (1 << 20),
               static_cast<unsigned long long>(graph.n), static_cast<unsigned long long>(graph.m));
  std::fprintf(stderr, "  peeled       %10llu nodes cannot reach a cycle (%llu rounds)\n",
               static_cast<unsigned long long>(st.peeled), static_cast<unsigned long long>(st.peel_rounds));
  std::fprintf(stderr, "  stages       %10zu\n", st.stages.size());
  for (std::size_t i = 0; i < st.stages.size(); ++i) {
    const LoopyStats::Stage& s = st.stages[i];
    std::fprintf(stderr, "  stage %-6zu %10.3f ms  labelled %llu, infinite %llu, rounds %llu, left %llu\n", i,
                 s.seconds * 1e3, static_cast<unsigned long long>(s.labelled), static_cast<unsigned long long>(s.infinite),
                 static_cast<unsigned long long>(s.rounds), static_cast<unsigned long long>(s.remaining));
  }
}

// The API's winning move as the user numbers it (1-based, by original_ids).
std::optional<UserMove> user_move(const Answer& a, std::span<const node_t> original_ids) {
  if (!a.move) return std::nullopt;
  return user_move_of({a.move->token, a.move->from, a.move->to}, original_ids);
}

// The engine's letter for a verdict (--outcome-out).
Outcome outcome_of(Verdict v) {
  return v == Verdict::win ? Outcome::win : v == Verdict::lose ? Outcome::lose : Outcome::draw;
}

// --loopy: a digraph with cycles, decided by generalized SG values (or, with
// --loopy=outcome, by the retrograde outcomes of a single token), through
// the API as a DAG is.
int solve_with_cycles(const SolveOptions& o, const Graph& loaded, const std::string& name, const ParallelConfig& pc,
                      Options api, SolveOutputs& outputs, PhaseTimer& timer, PhaseProgress& progress) {
  const GameView game = game_view(loaded);
  const std::span<const node_t> original_ids = loaded.original_ids();
  const CsrView graph = game.graph;
  const bool outcome_only = o.loopy == "outcome";
  if (outcome_only) require_single_token(game, name);
  require_memory(planned_solve_bytes(graph, Algo::automatic, true, o.verify), name,
                 std::to_string(graph.n) + " nodes and " + std::to_string(graph.m) + " edges with --loopy" +
                     (o.verify ? " --verify" : ""));
  Observer* const observer = api.observer;
  std::optional<Values> values;
  std::optional<Outcomes> outcomes;
  for (std::size_t trial = 0; trial < o.trials; ++trial) {
    const auto start = std::chrono::steady_clock::now();
    api.observer = trial + 1 == o.trials ? observer : nullptr;
    if (outcome_only) {
      outcomes = grundy::outcomes(loaded, api);
    } else {
      values = grundy::sg(loaded, api);
      plant_error(*values, o.plant_error);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.trials > 1) report_line("Trial Time:", seconds_text(seconds));
  }
  if (o.verify) {
    // Each engine checked by the other, and the values by Fraenkel's
    // conditions at every node.
    api.observer = nullptr;
    timer.start("verify");
    std::string checked;
    try {
      if (outcome_only) values = grundy::sg(loaded, api);
      checked = outcome_only ? grundy::verify(loaded, *values, *outcomes, api) : grundy::verify(loaded, *values, api);
    } catch (const Error& e) {
      timer.stop();
      progress.finish();
      report_line("Verification:", "FAIL");
      std::fprintf(stderr, "grundy: %s\n", e.what());
      return kMismatch;
    }
    timer.stop();
    progress.finish();
    report_line("Verification:", "PASS (" + checked + ")");
  }
  progress.finish();
  const Answer answer = outcome_only ? (game.tokens.empty() ? Answer{} : grundy::solve(loaded, *outcomes, game.tokens[0]))
                                     : grundy::solve(loaded, *values, game.tokens);
  // Loopy values are 32-bit: the writers read them where the engine left them.
  const std::span<const sg_t> value_span =
      values ? std::span<const sg_t>(static_cast<const sg_t*>(values->data()), values->size()) : std::span<const sg_t>();
  OutputFile out("-");
  std::uint64_t shortened = 0;
  // Files first: a failure there leaves stdout empty.
  const auto write_values = [&](OutputFile& f) { shortened = write_loopy_values(f, graph, value_span, original_ids); };
  const auto write_letters = [&](OutputFile& f) {
    Array<Outcome> of(graph.n);
    for_range(pc, 0, graph.n, [&](std::size_t b, std::size_t e) {
      for (std::size_t u = b; u < e; ++u)
        of[u] = outcome_only ? outcome_of((*outcomes)[u]) : node_outcome(graph, value_span, static_cast<node_t>(u));
    });
    write_outcomes(f, of, original_ids);
  };
  if (outputs.sg) publish(outputs.sg, o.sg_out, out, write_values);
  if (outputs.outcomes) publish(outputs.outcomes, o.outcome_out, out, write_letters);
  out.write(std::string(verdict_word(answer.verdict)) + "\n");
  if (o.move) out.write(move_text(user_move(answer, original_ids)) + "\n");
  if (!outputs.sg) publish(outputs.sg, o.sg_out, out, write_values);
  if (!outputs.outcomes) publish(outputs.outcomes, o.outcome_out, out, write_letters);
  out.commit();
  if (shortened > 0 && !quiet())
    std::fprintf(stderr, "grundy: --sg-out: %llu infinite values list only the first %zu members of K\n",
                 static_cast<unsigned long long>(shortened), kListedInfiniteSet);
  if (o.stats) print_loopy_stats(timer, timer.loopy, graph);
  return kOk;
}

// --gen SPEC: the game grundy gen would write, made in memory.
Graph generated_graph(const std::string& spec, unsigned threads, PhaseTimer& timer) {
  timer.start("generate");
  const GenSpec g = parse_solve_gen(spec).spec;
  Graph graph = Graph::generate(std::string(shape_name(g.shape)), g.nodes, g.edges, g.tokens, g.seed, g.layers, threads,
                                gen_name(spec));
  timer.stop();
  return graph;
}

// The input's size for the progress line: a regular file's, else 0 (a
// stream's is known only once it is read).
std::uint64_t input_bytes(const SolveOptions& o) {
  if (!o.gen.empty() || o.input == "-") return 0;
  std::error_code ec;
  const auto size = std::filesystem::file_size(o.input, ec);
  return ec ? 0 : size;
}

// The SG values, --trials times (the input loaded once): a line each and
// the average; the values of the last are the answer, and the last alone
// is told to api.observer.
Values trial_values(const Graph& graph, const SolveOptions& o, Options api) {
  Observer* const observer = api.observer;
  std::optional<Values> sg;
  double total = 0;
  for (std::size_t trial = 0; trial < o.trials; ++trial) {
    api.observer = trial + 1 == o.trials ? observer : nullptr;
    const auto start = std::chrono::steady_clock::now();
    sg = grundy::sg(graph, api);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += seconds;
    if (o.trials > 1) report_line("Trial Time:", seconds_text(seconds));
  }
  if (o.trials > 1) report_line("Average Time:", seconds_text(total / static_cast<double>(o.trials)));
  plant_error(*sg, o.plant_error);
  return *sg;
}

int solve(const SolveOptions& o) {
  if (!o.gen.empty() && o.input != "-") throw UsageError("give an input file or --gen SPEC, not both");
  check_loopy_options(o);
  const ParallelConfig pc{resolve_threads(o.threads)};
  SolveOutputs outputs(o);
  // --profile and the stats: every thread's spans and the counters go to a
  // recorder for the run, its tracks named as oneTBB's workers enter the arena.
  std::optional<PerfControl> perf;  // opened first: a bad FIFO fails before any work
  if (!o.perf_control.empty()) perf.emplace(o.perf_control);
  std::optional<trace::Recorder> recorder;
  if (!o.profile.empty() || o.stats || !o.stats_json.empty()) recorder.emplace().start();
  const TracedWorkers workers;
  PhaseTimer timer;  // phases, layering's parts, the mex steps
  timer.log_layers = recorder.has_value();
  api::TimerObserver observer(timer);
  if (o.gen.empty() && o.input == "-" && ::isatty(STDIN_FILENO) == 1 && !quiet())
    std::fprintf(stderr, "grundy: solve: reading an instance from standard input (the terminal); end it with Ctrl-D\n");
  // (Not with --trials: its lines are the measurement.)
  PhaseProgress progress("solve", o.trials > 1 ? 0 : input_bytes(o), timer);
  Options api{.engine = engine_named(o.algo), .threads = pc.threads, .loopy = !o.loopy.empty(), .observer = &observer};
  const Graph graph = o.gen.empty() ? Graph::load(o.input, api) : generated_graph(o.gen, pc.threads, timer);
  const std::string name = o.gen.empty() ? graph.name() : gen_name(o.gen);
  if (!o.loopy.empty()) return solve_with_cycles(o, graph, name, pc, api, outputs, timer, progress);
  const GameView game = game_view(graph);
  require_memory(planned_solve_bytes(game.graph, parse_algo(o.algo), false, o.verify), name,
                 std::to_string(graph.nodes()) + " nodes and " + std::to_string(graph.edges()) + " edges with --algo " +
                     o.algo + (o.verify ? " --verify" : ""));
  if (perf) perf->enable();
  const Values sg = trial_values(graph, o, api);
  if (perf) perf->disable();
  if (o.verify) {
    std::string checked;
    try {
      checked = grundy::verify(graph, sg, api);
    } catch (const Error& e) {
      progress.finish();
      report_line("Verification:", "FAIL");
      std::fprintf(stderr, "grundy: %s\n", e.what());
      return kMismatch;
    }
    progress.finish();
    report_line("Verification:", "PASS (" + checked + ")");
  }
  progress.finish();
  timer.start("xor");
  const Answer answer = grundy::solve(graph, sg, graph.tokens());
  timer.stop();

  // Every file is published before anything reaches stdout, so a failure
  // there leaves stdout empty, as every error must.
  const SgFileFormat sg_format = sg_file_format(o.sg_format, o.sg_out);
  const auto write_sg = [&](OutputFile& f) { write_sg_file(f, span_of(sg), graph.original_ids(), sg_format); };
  if (outputs.sg) {
    write_sg(*outputs.sg);
    outputs.sg->commit();
  }
  if (recorder) recorder->stop();
  const ProfileFacts facts{"solve", name, o.algo, pc.threads, game.graph, recorder ? MexPaths::of(game.graph) : MexPaths{}};
  std::optional<RunStats> stats;
  if (o.stats || outputs.stats_json) stats = analyze(timer, &*recorder, facts);
  if (outputs.stats_json) write_stats_json(*outputs.stats_json, *stats, facts);
  if (outputs.profile) write_profile(*outputs.profile, &timer, *recorder, facts);
  OutputFile out("-");
  out.write(answer.verdict == Verdict::win ? "win\n" : "lose\n");
  if (o.move) out.write(move_text(user_move(answer, graph.original_ids())) + "\n");
  if (!o.sg_out.empty() && names_stdout(o.sg_out)) write_sg(out);
  out.commit();
  if (o.stats) print_stats(*stats, facts);
  return kOk;
}

}  // namespace

Command add_solve(CLI::App& root) {
  auto opts = std::make_shared<SolveOptions>();
  CLI::App* sub = add_solve_options(root, *opts);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return solve(*opts); }); }};
}

}  // namespace grundy::cli
