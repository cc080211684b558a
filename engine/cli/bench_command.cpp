// grundy bench: inputs x engines x thread counts x trials. Every trial is
// verified and paired with a floor pass timed just before it; every run
// keeps its samples and its own cost (bench_probe.hpp), goes to runs.jsonl
// the moment it finishes, and at the end to bench.json, bench.csv and
// bench.md (bench_report.hpp). With --instances, a trial solves each of a
// generated input's distinct graphs once and its sample is their mean.

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <type_traits>

#include "bench_compare.hpp"
#include "bench_inputs.hpp"
#include "bench_report.hpp"
#include "build_info.hpp"
#include "command.hpp"
#include "progress.hpp"
#include "api_views.hpp"
#include "profile_report.hpp"
#include "grundy/api/timer_observer.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/primitives/traced_workers.hpp"
#include "grundy/solve/floor_kernel.hpp"
#include "grundy/solve/loopy_solver.hpp"

namespace grundy::cli {
namespace {

struct BenchOptions {
  InputSelection select;
  std::vector<std::string> algos{"level", "serial", "bgl"};
  std::vector<unsigned> threads;
  std::size_t trials = 5, warmup = 1;
  std::size_t instances = 1;  // distinct graphs (seeds) per generated input, each solved once a trial
  double min_time = 0;
  bool cold = false, list = false;
  std::string out;       // "": a new grundy-bench-<date-time> folder
  std::string manifest;  // "": the one built in
  std::uint64_t baseline_max_edges = 30'000'000;
  bool plant_error = false;          // hidden: corrupt the engine's output (tests verification)
  std::vector<std::string> formats;  // extra reports: gbench
  std::string profile;               // a folder for one traced trial per run
  std::string loopy;                 // --loopy: the engine for games with cycles instead of --algos
};

// What a run solves with: one of the DAG engines, or the loopy one.
struct BenchEngine {
  std::string algo = "level";  // as --algos names it
  Engine engine = Engine::level;
  LoopyMode loopy = LoopyMode::off;

  std::string name() const {
    if (loopy == LoopyMode::values) return "loopy";
    if (loopy == LoopyMode::outcome) return "loopy-outcome";
    return algo;
  }
  bool parallel() const { return loopy != LoopyMode::off || engine == Engine::level; }  // serial and bgl: one thread
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, format, std::gmtime(&now));
  return text;
}

// The report's folder, checked before hours of runs: --out as given (made
// if missing), or a new folder named by the date and time, never one that
// exists already.
std::string prepare_out_folder(const std::string& out) {
  std::error_code ec;
  std::string dir = out;
  if (dir.empty()) {
    const std::string base = "grundy-bench-" + utc_now("%Y%m%d-%H%M%S");
    dir = base;
    for (int k = 2; std::filesystem::exists(dir, ec); ++k) dir = base + "-" + std::to_string(k);
  } else if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
    throw InputError(dir + ": --out names a file; bench writes a folder of reports there");
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create the report folder: " + ec.message());
  std::filesystem::remove(dir + "/runs.jsonl", ec);  // this run's log starts empty
  return dir;
}

// One trial: load the input and solve it through the API, timed by phase,
// with a floor pass over the loaded graph at the same thread count between
// the two (on a machine whose neighbours come and go, a floor timed once
// could measure a different machine); then the values are checked. The
// input is loaded by the trial itself, so that the run's peak memory is its
// own.
struct Trial {
  PhaseTimer timer;
  double floor = 0;
  double sg = 0;         // the solver's call alone: its phases, not the load's or the xor
  std::string mismatch;  // the verification's complaint, if any
};

// What every trial's answer is checked against.
struct Check {
  const Values* want = nullptr;  // reference values (the baseline's, or --loopy's), or null: the mex rule
  const Outcomes* want_outcomes = nullptr;  // --loopy=outcome: the reference outcomes
  bool plant_error = false;
};

// The floor: one gather of a value per edge over the loaded graph, the
// least any engine must do (floor_kernel.hpp), timed on its own.
double floor_seconds(const Graph& graph, unsigned threads) {
  const CsrView g = game_view(graph).graph;
  const SgValues values(g.n, g.m);  // freed before the solve
  const auto start = Clock::now();
  volatile std::uint64_t sink = floor_gather(g, values, ParallelConfig{threads});
  (void)sink;
  return seconds_since(start);
}

// An API error's message without the name it starts with ("<name>: ...").
std::string without_name(const Error& e, const std::string& name) {
  const std::string what = e.what(), prefix = name + ": ";
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

// The values (or outcomes) of one trial against the check: "" when right.
template <class Result>
std::string checked(const Graph& graph, const Result& got, const Check& check, const Options& api) {
  if (check.plant_error) plant_error(got, 0);
  try {
    if constexpr (std::is_same_v<Result, Outcomes>) {
      grundy::verify(graph, got, *check.want_outcomes);
    } else if (check.want != nullptr) {
      grundy::verify(graph, got, *check.want);
    } else {
      grundy::verify_mex_rule(graph, got, api);
    }
  } catch (const Error& e) {
    return without_name(e, graph.name());  // the run line names the graph
  }
  return {};
}

// The XOR of the tokens' values: the answer a trial times apart from the solve.
std::uint32_t xor_of(const Values& values, std::span<const std::uint32_t> tokens) {
  std::uint32_t x = 0;
  for (const std::uint32_t t : tokens)
    if (values[t] != Values::infinite) x ^= values[t];
  return x;
}

// With `profile`, the trial is traced (a track per worker, counters) and the
// trace written there, named after the run in `facts`.
Trial run_trial(const std::string& file, const BenchEngine& engine, unsigned threads, bool cold, const Check& check,
                const std::string* profile = nullptr, ProfileFacts facts = {}) {
  Trial trial;
  if (cold) drop_from_page_cache(file);
  std::optional<trace::Recorder> recorder;
  if (profile != nullptr) {
    recorder.emplace().start();
    trial.timer.log_layers = true;
  }
  in_arena(threads, [&] {
    const TracedWorkers workers;
    api::TimerObserver observer(trial.timer);
    const Options api{.engine = engine.engine, .threads = threads, .loopy = engine.loopy != LoopyMode::off,
                      .observer = &observer};
    const Graph graph = Graph::load(file, api);
    trial.floor = floor_seconds(graph, threads);
    const auto solve_start = Clock::now();
    if (engine.loopy == LoopyMode::outcome) {
      const Outcomes out = grundy::outcomes(graph, api);
      trial.sg = seconds_since(solve_start);
      trial.mismatch = checked(graph, out, check, api);
      return;
    }
    const Values values = grundy::sg(graph, api);
    trial.sg = seconds_since(solve_start);
    trial.timer.start("xor");
    volatile std::uint32_t x = xor_of(values, graph.tokens());
    (void)x;
    trial.timer.stop();
    trial.mismatch = checked(graph, values, check, api);
    if (recorder) {
      recorder->stop();
      facts.graph = game_view(graph).graph;
      facts.mex = MexPaths::of(facts.graph);
      OutputFile out(*profile);
      write_profile(out, &trial.timer, *recorder, facts);
    }
  });
  return trial;
}

// The entry named `name` in a list kept in first-seen order, added if new.
template <class Value>
Value& named(std::vector<std::pair<std::string, Value>>& list, const std::string& name) {
  auto it = std::find_if(list.begin(), list.end(), [&](const auto& p) { return p.first == name; });
  if (it == list.end()) it = list.insert(list.end(), {name, Value{}});
  return it->second;
}

// The samples of a run's timed trials, phase by phase.
struct Samples {
  std::vector<std::pair<std::string, std::vector<double>>> phases;
  std::vector<double> totals, sgs, floors, ratios;

  // One sample per trial: the mean over its instances, a phase that an
  // instance did not run counting as 0 there (an engine may walk one graph
  // and layer the next), so that the phases still add up to the total.
  void add(const std::vector<Trial>& instances) {
    const auto count = static_cast<double>(instances.size());
    std::vector<std::pair<std::string, double>> sums;
    double total = 0, sg = 0, floor = 0;
    for (const Trial& trial : instances) {
      for (const auto& ph : trial.timer.phases()) {
        named(sums, ph.name) += ph.seconds;
        total += ph.seconds;
      }
      sg += trial.sg;
      floor += trial.floor;
    }
    for (const auto& [name, seconds] : sums) named(phases, name).push_back(seconds / count);
    totals.push_back(total / count);
    sgs.push_back(sg / count);
    floors.push_back(floor / count);
    if (floor > 0) ratios.push_back(sg / floor);
  }

  void summarize_into(BenchRun& run) const {
    for (const auto& [name, samples] : phases) run.phases.emplace_back(name, Summary::of(samples));
    run.total = Summary::of(totals);
    run.sg = Summary::of(sgs);
    run.floor = Summary::of(floors);
    run.ratio = Summary::of(ratios);
  }
};

// One graph of an input, with what its trials are checked against: each
// instance has its own reference, so that no graph is judged by another's.
struct Instance {
  std::string file;
  std::optional<Values> want;  // the baseline's values, or --loopy's reference values
  std::optional<Outcomes> want_outcomes;  // --loopy=outcome's reference

  Check check(bool plant_error) const {
    return {want ? &*want : nullptr, want_outcomes ? &*want_outcomes : nullptr, plant_error};
  }
};

// An input as the runs need it: each instance generated if it is not
// cached, loaded once for its facts and its reference values (where the
// baseline fits), and let go before the runs.
struct Prepared {
  BenchDataset info;
  std::vector<Instance> instances;
};

// A generated input, written once into the cache as `grundy gen` writes it.
void generate_cached(const BenchInput& in, const ParallelConfig& all) {
  std::error_code ec;
  if (std::filesystem::exists(in.file, ec)) return;
  if (!quiet()) std::fprintf(stderr, "grundy: bench: generating %s (%s)\n", in.name.c_str(), in.generator.c_str());
  std::filesystem::create_directories(std::filesystem::path(in.file).parent_path(), ec);
  const GenSpec& s = in.gen->spec;
  generate_file({.shape = std::string(shape_name(s.shape)), .nodes = s.nodes, .edges = s.edges, .tokens = s.tokens,
                 .seed = s.seed, .layers = s.layers, .layered = in.gen->layered},
                in.file, {.threads = all.threads});
}

// The references every trial is checked against: with --loopy one solve,
// proven by Fraenkel's conditions and the outcome analysis, each engine
// checking the other; else the Boost.Graph baseline where it fits, and
// otherwise (the mex rule, checked per trial) a layering that names a cycle.
void prepare_references(const Graph& graph, const BenchOptions& o, const ParallelConfig& all, Instance& p) {
  const Options api{.threads = all.threads, .loopy = !o.loopy.empty()};
  if (!o.loopy.empty()) {
    p.want = grundy::sg(graph, api);
    p.want_outcomes = grundy::outcomes(graph, api);
    grundy::verify(graph, *p.want, *p.want_outcomes, api);
    return;
  }
  if (graph.edges() <= o.baseline_max_edges) {
    p.want = grundy::sg(graph, {.engine = grundy::Engine::bgl, .threads = all.threads});
  } else {
    (void)grundy::layering(graph, api);
  }
}

// One instance: generated if need be, loaded, and its reference made;
// the first also gives the dataset its facts.
Instance prepare_instance(const BenchInput& in, const BenchOptions& o, const ParallelConfig& all, BenchDataset& info) {
  Instance instance;
  instance.file = in.file;
  if (in.gen) generate_cached(in, all);
  const Graph graph = [&] {
    try {
      return Graph::load(in.file, {.threads = all.threads, .loopy = !o.loopy.empty()});
    } catch (const Error& e) {
      throw InputError(e.what());
    }
  }();
  if (info.files.empty()) {
    const GraphSource source = graph.source();
    info.format = source.format;
    info.n = graph.nodes();
    info.m = graph.edges();
    info.k = graph.tokens().size();
    if (source.layered) info.layered = true;
  }
  info.files.push_back(in.file);
  try {
    // A cycle is this input's error line (naming --loopy), and the others go on.
    prepare_references(graph, o, all, instance);
  } catch (const Error& e) {
    // Named as the run lines name it (a dataset by its name, a file by its file name).
    const std::string rest = without_name(e, in.file);
    throw InputError(rest == e.what() ? rest : in.name + ": " + rest);
  }
  return instance;
}

Prepared prepare(const BenchInput& in, const BenchOptions& o, const ParallelConfig& all) {
  Prepared p;
  p.info.name = in.name;
  p.info.kind = in.kind;
  p.info.size = in.size;
  p.info.file = in.file;
  p.info.generator = in.generator;
  if (in.gen) p.info.layered = in.gen->layered;
  for (const BenchInput& instance : instances_of(in, o.instances, o.select.cache))
    p.instances.push_back(prepare_instance(instance, o, all, p.info));
  return p;
}

// "1.23 ms ± 0.05" style figures for the progress lines.
std::string figure(double seconds) {
  char buf[32];
  if (seconds >= 1) {
    std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  } else if (seconds >= 1e-3) {
    std::snprintf(buf, sizeof buf, "%.2f ms", seconds * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
  }
  return buf;
}

// Progress on stderr: on a terminal, one line redrawn (progress.hpp) with
// the run, the trial, the time spent and an estimate of what is left;
// elsewhere nothing but the line per finished run.
class BenchProgress {
 public:
  explicit BenchProgress(std::size_t runs) : runs_(runs) {}

  void trial(std::size_t run, const std::string& what, std::size_t trial, std::size_t trials) {
    const double elapsed = seconds_since(start_);
    std::string eta = "?";
    if (run > 0) eta = figure(elapsed / static_cast<double>(run) * static_cast<double>(runs_ - run));
    line_.show("[" + std::to_string(run + 1) + "/" + std::to_string(runs_) + "] " + what + ": trial " +
               std::to_string(trial) + " of " + std::to_string(trials) + ", " + figure(elapsed) + " elapsed, ETA " +
               eta);
  }

  void clear() { line_.finish(); }

  void finished(std::size_t run, const std::string& what, const BenchRun& r) {
    clear();
    for (const auto& w : r.warnings) std::fprintf(stderr, "grundy: bench: warning: %s\n", w.c_str());
    if (quiet()) return;
    char spread[64] = "(1 trial)";
    if (r.sg.samples.size() > 1)
      std::snprintf(spread, sizeof spread, "± %s (CV %.1f%%, %zu trials)", figure(r.sg.mad).c_str(), r.sg.cv * 100,
                    r.sg.samples.size());
    std::fprintf(stderr, "grundy: bench: [%zu/%zu] %s: SG %s %s, %.1fM edges/s, %.2fx floor, %llu MiB peak\n", run + 1,
                 runs_, what.c_str(), figure(r.sg.median).c_str(), spread, r.edges_per_second / 1e6, r.ratio.median,
                 static_cast<unsigned long long>(r.cost.peak_rss_bytes >> 20));
  }

 private:
  std::size_t runs_;
  Progress line_{"bench"};
  Clock::time_point start_ = Clock::now();
};

// One run (input x engine x threads): o.warmup untimed trials, then o.trials
// timed ones (more while o.min_time is not reached), every one verified.
// Nothing when a trial's values are wrong (said on stderr).
std::optional<BenchRun> run_one(const Prepared& d, const BenchEngine& engine, unsigned t, const BenchOptions& o,
                                std::size_t index, BenchProgress& progress) {
  BenchRun run;
  run.dataset = d.info.name;
  run.algo = engine.name();
  run.threads = t;
  run.warmup = o.warmup;
  run.cold = o.cold;
  run.n = d.info.n;
  run.m = d.info.m;
  run.instances = d.instances.size();
  run.verified = engine.loopy != LoopyMode::off ? "conditions" : d.instances.front().want ? "baseline" : "mex rule";
  const std::string what = d.info.name + ", " + run.algo + ", " + std::to_string(t) + " thread" + (t == 1 ? "" : "s");
  Samples samples;
  const RunProbe probe;
  const auto timed_start = std::make_shared<Clock::time_point>();
  for (std::size_t trial = 0;; ++trial) {
    const std::size_t timed = trial >= o.warmup ? trial - o.warmup : 0;
    if (trial >= o.warmup + o.trials && (o.min_time <= 0 || seconds_since(*timed_start) >= o.min_time)) break;
    if (trial == o.warmup) *timed_start = Clock::now();
    progress.trial(index, what, timed + 1, o.trials);
    // Every trial is checked, the warm-up included, each instance against its own reference.
    std::vector<Trial> instances;
    for (const Instance& instance : d.instances) {
      instances.push_back(run_trial(instance.file, engine, t, o.cold, instance.check(o.plant_error)));
      if (const std::string& mismatch = instances.back().mismatch; !mismatch.empty()) {
        progress.clear();
        const std::string which = d.instances.size() > 1 ? " (" + instance.file + ")" : "";
        std::fprintf(stderr, "grundy: bench: %s%s: %s\n", what.c_str(), which.c_str(), mismatch.c_str());
        return std::nullopt;
      }
    }
    if (trial >= o.warmup) samples.add(instances);
  }
  run.cost = probe.finish();
  // --profile DIR: one more trial, traced, apart from the timed ones.
  if (!o.profile.empty()) {
    std::string name = d.info.name + "-" + run.algo + "-" + std::to_string(t) + "t.json";
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '/' || c == ',' || c == '='; }, '_');
    const std::string path = o.profile + "/" + name;
    run_trial(d.info.file, engine, t, o.cold, d.instances.front().check(false), &path,
              {"bench", d.info.name, run.algo, t, {}});
  }
  samples.summarize_into(run);
  run.assess();
  return run;
}

int run_bench(BenchOptions o) {
  if (!o.loopy.empty() && !o.profile.empty())
    throw UsageError("--profile traces the DAG engine's phases; with --loopy the runs report the stages as phases");
  const std::vector<ManifestEntry> manifest = [&] {
    if (o.manifest.empty()) return parse_manifest(embedded_manifest(), "built-in manifest");
    std::ifstream in(o.manifest);
    if (!in) throw InputError(o.manifest + ": cannot open the dataset manifest");
    std::stringstream text;
    text << in.rdbuf();
    return parse_manifest(text.str(), o.manifest);
  }();
  if (o.select.cache.empty()) o.select.cache = default_cache_dir();
  if (o.list) {
    std::fputs(list_manifest(manifest, o.select.cache).c_str(), stdout);
    return kOk;
  }
  if (o.threads.empty()) o.threads = {1, resolve_threads(0)};
  std::sort(o.threads.begin(), o.threads.end());
  o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
  std::vector<BenchEngine> engines;
  if (!o.loopy.empty()) {
    engines.push_back({"level", Engine::level, parse_loopy_mode(o.loopy)});
  } else {
    for (const auto& a : o.algos) engines.push_back({a, engine_named(a), LoopyMode::off});
  }
  const std::vector<BenchInput> inputs = resolve_inputs(o.select, manifest);
  if (inputs.empty()) {
    std::fprintf(stderr, "grundy: bench: no input: name files, folders, gen: specs or datasets (--list)\n");
    return kUsage;
  }
  if (o.instances > 1 && !quiet())
    for (const BenchInput& in : inputs)
      if (!in.gen)
        std::fprintf(stderr, "grundy: bench: note: %s is a file, one instance (--instances makes graphs of generated inputs)\n",
                     in.name.c_str());
  const std::string out = prepare_out_folder(o.out);
  if (!o.profile.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.profile, ec);
    if (ec) throw InputError(o.profile + ": --profile: cannot create the folder: " + ec.message());
  }
  RunLog log(out + "/runs.jsonl");

  BenchReport report;
  report.machine = describe_machine();
  report.commit = source_commit();
  report.command = command_line();
  report.date = utc_now("%Y-%m-%dT%H:%M:%SZ");
  const ParallelConfig all{resolve_threads(0)};
  std::size_t runs = 0;
  for (const BenchEngine& e : engines) runs += e.parallel() ? o.threads.size() : 1;
  BenchProgress progress(runs * inputs.size());
  std::size_t index = 0;
  int rc = kOk;
  // An input that fails to load is one error line, and the others go on; a
  // wrong answer stops the bench. Either way the finished runs are reported.
  for (const BenchInput& in : inputs) {
    std::optional<Prepared> d;
    try {
      d.emplace(prepare(in, o, all));
    } catch (const InputError& e) {
      progress.clear();
      std::fprintf(stderr, "grundy: bench: %s\n", e.what());
      rc = kBadInput;
      index += runs;
      continue;
    }
    for (const BenchEngine& engine : engines) {
      for (unsigned t : o.threads) {
        if (rc == kMismatch || (!engine.parallel() && t != 1)) continue;
        std::optional<BenchRun> run = run_one(*d, engine, t, o, index, progress);
        if (!run) {
          rc = kMismatch;
          continue;
        }
        progress.finished(index++,
                          d->info.name + ", " + run->algo + ", " + std::to_string(t) + " thread" + (t == 1 ? "" : "s"),
                          *run);
        log.append(*run);
        report.runs.push_back(std::move(*run));
      }
    }
    report.datasets.push_back(d->info);
    if (rc == kMismatch) break;
  }
  report.finish();
  report.write(out);
  const bool gbench = std::find(o.formats.begin(), o.formats.end(), "gbench") != o.formats.end();
  if (gbench) report.write_gbench(out);
  if (!quiet())
    std::fprintf(stderr, "grundy: bench: wrote %s/ (runs.jsonl, bench.json, bench.csv, bench.md, report.html%s)\n",
                 out.c_str(), gbench ? ", gbench.json" : "");
  return rc;
}

}  // namespace

Command add_bench(CLI::App& root) {
  auto opts = std::make_shared<BenchOptions>();
  CLI::App* sub = root.add_subcommand(
      "bench",
      "benchmark graphs (files, folders, gen: specs, built-in datasets) x engines x threads x trials, verified");
  sub->add_option("inputs", opts->select.args,
                  "classic text, .el or .gcsr files, folders of them, gen:SHAPE,nodes=N,edges=M[,tokens=K,seed=S,"
                  "layers=L,layered] specs, or dataset names (--list); none: the built-in datasets of --sizes")
      ->type_name("INPUT");
  sub->add_option("--sizes", opts->select.sizes, "built-in dataset sizes: small, medium, large, huge")
      ->type_name("SIZE")
      ->default_str("small")
      ->delimiter(',')
      ->check(CLI::IsMember({"small", "medium", "large", "huge"}));
  sub->add_option("--datasets", opts->select.names, "only these built-in datasets")->type_name("NAME")->delimiter(',');
  sub->add_option("--filter", opts->select.filter, "built-in datasets whose name matches this regular expression")
      ->type_name("REGEX");
  sub->add_flag("--list", opts->list, "print the built-in datasets with their sizes, and whether they are cached");
  sub->add_option("--algos", opts->algos,
                  "engines, comma-separated: level (parallel layers), serial (reference DFS), bgl (Boost.Graph "
                  "baseline), auto (= level)")
      ->type_name("ENGINE")
      ->default_str("level,serial,bgl")
      ->delimiter(',')
      ->check(CLI::IsMember(algo_names()));
  add_loopy_option(*sub, opts->loopy,
                   "benchmark the engine for games with cycles (instead of --algos) on every thread count: values");
  add_count(*sub, "-t,--threads", opts->threads, "thread counts for the level engine, comma-separated", 1,
            max_threads())
      ->default_str("1," + std::to_string(resolve_threads(0)))
      ->delimiter(',');
  add_count(*sub, "--trials", opts->trials, "timed trials per run", 1, 100000)->default_val(5);
  add_count(*sub, "--warmup", opts->warmup, "untimed (but verified) trials before them", 0, 1000)->default_val(1);
  add_count(*sub, "--instances", opts->instances,
            "distinct graphs per generated input (seeds S, S+1, ...), each solved once a trial, the trial's times "
            "their mean: as a batch meets graphs, where one graph solved again and again keeps its caches and "
            "trains the branch predictor (a file is one instance)",
            1, 10000)
      ->default_val(1);
  sub->add_option("--min-time", opts->min_time, "go on with trials until the timed ones took this many seconds")
      ->type_name("SECONDS")
      ->check(number_within(0, 1e6));
  sub->add_flag("--cold", opts->cold, "drop the input from the page cache before each trial (default: warm)");
  sub->add_option("--out", opts->out, "folder for the reports (default: a new grundy-bench-<date>-<time>)")
      ->type_name("DIR");
  sub->add_option("--cache", opts->select.cache, "folder for generated graphs (default: $XDG_CACHE_HOME/grundy)")
      ->type_name("DIR");
  sub->add_option("--manifest", opts->manifest, "a dataset manifest instead of the built-in one (datasets/bench.tsv)")
      ->type_name("FILE");
  add_count(*sub, "--baseline-max-edges", opts->baseline_max_edges,
            "verify against the Boost.Graph baseline up to this many edges; above, by the mex rule")
      ->default_val(30'000'000);
  sub->add_option("--format", opts->formats,
                  "extra reports: gbench (gbench.json, Google Benchmark's JSON, for its compare.py)")
      ->type_name("FORMAT")
      ->delimiter(',')
      ->check(CLI::IsMember({"gbench"}));
  sub->add_option("--profile", opts->profile,
                  "a folder: after each run's timed trials, one more, traced, written there as a Chrome trace "
                  "(<dataset>-<algo>-<threads>t.json)")
      ->type_name("DIR");
  sub->add_flag("--plant-error", opts->plant_error, "testing only: corrupt every result")->group("");
  add_quiet_option(*sub);
  auto compare = std::make_shared<CompareOptions>();
  CLI::App* cmp = sub->add_subcommand(
      "compare", "compare two bench reports run by run and phase: ratio of medians, Mann-Whitney U p-value, verdict");
  cmp->add_option("a", compare->a, "the reference report (a folder or its bench.json)")->type_name("PATH")->required();
  cmp->add_option("b", compare->b, "the report compared with it")->type_name("PATH")->required();
  cmp->add_option("--json", compare->json, "also write the comparison as JSON to this file")->type_name("FILE");
  cmp->add_option("--fail-above", compare->fail_above,
                  "exit 1 when an SG time is significantly slower than this ratio (a CI gate, e.g. 1.05)")
      ->type_name("RATIO")
      ->check(number_within(1e-9, 1e9));
  cmp->add_option("--alpha", compare->alpha, "significance level of the U test")
      ->type_name("P")
      ->default_val(0.05)
      ->check(number_within(1e-6, 0.5));
  return {sub, [opts, compare, cmp] {
            if (cmp->parsed()) return run_compare(*compare);
            try {
              return run_bench(*opts);
            } catch (const std::invalid_argument& e) {
              std::fprintf(stderr, "grundy: bench: %s\n", e.what());
              return static_cast<int>(kUsage);
            }
          }};
}

}  // namespace grundy::cli
