// grundy bench: datasets x algorithms x thread counts x trials, every trial
// verified and paired with a floor pass timed just before it, results written as
// JSON, CSV and Markdown (bench_report.hpp).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "bench_report.hpp"
#include "command.hpp"
#include "grundy/solve/floor_kernel.hpp"
#include "grundy/core/game.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/jobs/generated_file.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> sizes{"small"};
  std::vector<std::string> algos{"level", "serial", "bgl"};
  std::vector<unsigned> threads;
  std::vector<std::string> only;  // dataset names
  std::size_t trials = 3;
  std::string out = "results";
  std::string cache = "build/cache/datasets";
  std::string manifest = GRUNDY_SOURCE_DIR "/datasets/bench.tsv";
  std::uint64_t baseline_max_edges = 30'000'000;
  bool plant_error = false;  // hidden: corrupt the engine's output (tests verification)
  std::string command;
};

struct Entry {
  BenchDataset info;
  GenSpec spec;
};

std::vector<Entry> read_manifest(const BenchOptions& o) {
  std::ifstream in(o.manifest);
  if (!in) throw InputError(o.manifest + ": cannot open the dataset manifest");
  std::vector<Entry> out;
  std::set<std::string> names;
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    Entry e;
    std::string layered;
    f >> e.info.name >> e.info.size >> e.info.shape >> e.spec.nodes >> e.spec.edges >> e.spec.tokens >> e.spec.seed >>
        e.spec.layers >> layered;
    if (!f || (layered != "yes" && layered != "no"))
      throw InputError(o.manifest + ":" + std::to_string(line_no) + ": expected 9 tab-separated fields");
    try {
      e.spec.shape = parse_shape(e.info.shape);
      check_spec(e.spec);  // sizes past what any file holds are refused here, with the row's line
    } catch (const std::invalid_argument& err) {
      throw InputError(o.manifest + ":" + std::to_string(line_no) + ": " + err.what());
    }
    e.info.layered = layered == "yes";
    if (!names.insert(e.info.name).second)
      throw InputError(o.manifest + ":" + std::to_string(line_no) + ": dataset \"" + e.info.name +
                       "\" is named twice (each name has its own cache file)");
    const auto wanted = [](const std::vector<std::string>& v, const std::string& x) {
      return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
    };
    if (!wanted(o.sizes, e.info.size) || !wanted(o.only, e.info.name)) continue;
    e.info.file = o.cache + "/" + e.info.name + ".g" + std::to_string(kGeneratorVersion) + ".gcsr";
    e.info.generator = "grundy gen --shape " + e.info.shape + " --nodes " + std::to_string(e.spec.nodes) + " --edges " +
                       std::to_string(e.spec.edges) + " --tokens " + std::to_string(e.spec.tokens) + " --seed " +
                       std::to_string(e.spec.seed) + " --layers " + std::to_string(e.spec.layers) +
                       (e.info.layered ? " --layered" : "") + " " + e.info.file;
    out.push_back(e);
  }
  return out;
}

// Peak resident memory since the last reset (Linux: VmHWM, reset through
// clear_refs), so each run reports its own peak, not the process's.
void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }
std::uint64_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The report's folder, checked before hours of runs: not a file, creatable.
void prepare_out_folder(const std::string& out) {
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec))
    throw InputError(out + ": --out names a file; bench writes a folder of reports there");
  std::filesystem::create_directories(out, ec);
  if (ec) throw InputError(out + ": cannot create the report folder: " + ec.message());
}

// One trial: a floor pass at the same thread count just before it (on a
// machine whose neighbours come and go, a floor timed once per dataset could
// measure a different machine), then load, solve and xor, timed by phase.
struct Trial {
  PhaseTimer timer;
  SgValues sg;
  double floor = 0;
};

Trial run_trial(const CsrView& g, const std::string& file, Algo algo, unsigned threads) {
  Trial trial;
  in_arena(threads, [&] {
    const ParallelConfig pc{threads};
    {
      const SgValues values(g.n, g.m);  // freed before the solve: not in its peak memory
      const auto floor_start = std::chrono::steady_clock::now();
      volatile std::uint64_t sink = floor_gather(g, values, pc);
      (void)sink;
      trial.floor = seconds_since(floor_start);
    }
    trial.timer.start("load/validate");
    const MappedFile f(file);
    const GcsrGame loaded = read_gcsr(f.bytes(), file, pc);
    trial.sg = solve_sg(loaded.game.graph, algo, pc, &trial.timer, loaded.layers);
    trial.timer.start("xor");
    volatile sg_t x = nim_sum(trial.sg, loaded.game.tokens);
    (void)x;
    trial.timer.stop();
  });
  return trial;
}

// The samples of a run's timed trials, phase by phase.
struct Samples {
  std::vector<std::pair<std::string, std::vector<double>>> phases;
  std::vector<double> totals, sgs, floors, ratios;

  void add(const Trial& trial) {
    double total = 0, solve = 0;
    for (const auto& ph : trial.timer.phases()) {
      auto it = std::find_if(phases.begin(), phases.end(), [&](const auto& p) { return p.first == ph.name; });
      if (it == phases.end()) it = phases.insert(phases.end(), {ph.name, {}});
      it->second.push_back(ph.seconds);
      total += ph.seconds;
      if (ph.name != "load/validate" && ph.name != "xor") solve += ph.seconds;
    }
    totals.push_back(total);
    sgs.push_back(solve);
    floors.push_back(trial.floor);
    if (trial.floor > 0) ratios.push_back(solve / trial.floor);
  }

  void summarize_into(BenchRun& run) const {
    for (const auto& [name, samples] : phases) run.phases.emplace_back(name, Spread::of(samples));
    run.total = Spread::of(totals);
    run.sg = Spread::of(sgs);
    run.floor = Spread::of(floors);
    run.ratio_to_floor = Spread::of(ratios).median;
  }
};

// A dataset as the runs need it: mapped, validated, and its reference values
// where the baseline fits.
struct LoadedDataset {
  BenchDataset info;
  std::unique_ptr<MappedFile> file;
  GcsrGame game;
  bool use_baseline = false;
  SgValues want;
};

LoadedDataset load_dataset(const Entry& e, const BenchOptions& o, const ParallelConfig& all) {
  LoadedDataset d;
  d.info = e.info;
  if (!std::filesystem::exists(d.info.file)) {
    std::fprintf(stderr, "grundy: bench: generating %s (%s)\n", d.info.file.c_str(), d.info.generator.c_str());
    write_generated(e.spec, d.info.file, d.info.layered, 1, all);
  }
  d.file = std::make_unique<MappedFile>(d.info.file);
  d.game = read_gcsr(d.file->bytes(), d.info.file, all);
  const CsrView& g = d.game.game.graph;
  d.info.n = g.n;
  d.info.m = g.m;
  d.info.k = d.game.game.tokens.size();
  d.use_baseline = g.m <= o.baseline_max_edges;
  if (d.use_baseline) d.want = solve_sg(g, Algo::bgl, all);
  return d;
}

// One run (dataset x engine x threads): a warm-up and o.trials timed trials,
// every one verified. Nothing when a trial's values are wrong (said on stderr).
std::optional<BenchRun> run_one(const LoadedDataset& d, Algo algo, unsigned t, const BenchOptions& o,
                                const ParallelConfig& all, std::vector<double>& floor_samples) {
  const CsrView& g = d.game.game.graph;
  BenchRun run;
  run.dataset = d.info.name;
  run.algo = std::string(algo_name(algo));
  run.threads = t;
  run.trials = o.trials;
  run.verified = d.use_baseline ? "baseline" : "mex rule";
  Samples samples;
  reset_peak_rss();
  for (std::size_t trial = 0; trial <= o.trials; ++trial) {
    Trial tr = run_trial(g, d.info.file, algo, t);
    if (o.plant_error && g.n > 0) tr.sg.visit([](auto v) { v[0] ^= 1; });
    // Every trial is checked, the warm-up included.
    const auto bad = d.use_baseline ? compare_sg(tr.sg, d.want) : check_mex_rule(g, tr.sg, all);
    if (bad) {
      std::fprintf(stderr, "grundy: bench: %s: %s with %u threads: %s\n", d.info.name.c_str(), run.algo.c_str(), t,
                   describe_mismatch(*bad, std::uint64_t{bad->node} + 1).c_str());
      return std::nullopt;
    }
    if (trial == 0) continue;  // the warm-up is not timed
    samples.add(tr);
    floor_samples.push_back(tr.floor);
  }
  run.peak_rss_bytes = peak_rss_bytes();
  samples.summarize_into(run);
  return run;
}

int run_bench(BenchOptions o) {
  if (o.threads.empty()) o.threads = {1, resolve_threads(0)};
  std::sort(o.threads.begin(), o.threads.end());
  o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
  std::vector<Algo> algos;
  for (const auto& a : o.algos) algos.push_back(parse_algo(a));
  prepare_out_folder(o.out);
  const std::vector<Entry> entries = read_manifest(o);
  if (entries.empty()) {
    std::fprintf(stderr, "grundy: bench: no dataset of sizes/names asked for in %s\n", o.manifest.c_str());
    return kUsage;
  }
  std::filesystem::create_directories(o.cache);

  BenchReport report;
  report.machine = describe_machine();
  report.commit = source_commit();
  report.command = o.command;
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  report.date = date;
  const ParallelConfig all{resolve_threads(0)};

  for (const Entry& e : entries) {
    LoadedDataset d = load_dataset(e, o, all);
    std::map<unsigned, std::vector<double>> floor_samples;  // threads -> every paired floor pass
    for (Algo algo : algos) {
      for (unsigned t : o.threads) {
        if (algo != Algo::level && t != 1) continue;  // serial and bgl use one thread
        std::fprintf(stderr, "grundy: bench: %s, %s, %u thread%s\n", d.info.name.c_str(),
                     std::string(algo_name(algo)).c_str(), t, t == 1 ? "" : "s");
        std::optional<BenchRun> run = run_one(d, algo, t, o, all, floor_samples[t]);
        if (!run) return kMismatch;
        report.runs.push_back(std::move(*run));
      }
    }
    for (const auto& [t, samples] : floor_samples) d.info.floor[t] = Spread::of(samples);
    report.datasets.push_back(d.info);
  }
  report.finish();
  report.write(o.out);
  std::fprintf(stderr, "grundy: bench: wrote %s/bench.json, bench.csv and bench.md\n", o.out.c_str());
  return kOk;
}

}  // namespace

Command add_bench(CLI::App& root) {
  auto opts = std::make_shared<BenchOptions>();
  CLI::App* sub = root.add_subcommand(
      "bench", "end-to-end benchmark: datasets x algorithms x threads x trials, verified, into --out");
  sub->add_option("--sizes", opts->sizes, "dataset sizes: small, medium, large, huge")
      ->delimiter(',')
      ->check(CLI::IsMember({"small", "medium", "large", "huge"}));
  sub->add_option("--datasets", opts->only, "only these datasets (names from the manifest)")->delimiter(',');
  sub->add_option("--algos", opts->algos, "level, serial, bgl")->delimiter(',')->check(CLI::IsMember(algo_names()));
  sub->add_option("--threads", opts->threads, "thread counts for the level engine (default: 1 and every core)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 4096u));
  sub->add_option("--trials", opts->trials, "timed trials per run, after one warm-up")
      ->default_val(3)
      ->check(CLI::Range(1, 1000));
  sub->add_option("--out", opts->out, "folder for bench.json, bench.csv, bench.md")->default_str("results");
  sub->add_option("--cache", opts->cache, "folder for generated datasets (never committed)")
      ->default_str("build/cache/datasets");
  sub->add_option("--manifest", opts->manifest, "dataset manifest")->default_str("datasets/bench.tsv");
  sub->add_option("--baseline-max-edges", opts->baseline_max_edges,
                  "verify against the Boost.Graph baseline up to this many edges; above, by the mex rule")
      ->default_val(30'000'000);
  sub->add_flag("--plant-error", opts->plant_error, "testing only: corrupt every result")->group("");
  return {sub, [opts] {
            opts->command = command_line();
            return run_bench(*opts);
          }};
}

}  // namespace grundy::cli
