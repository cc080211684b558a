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

int run_bench(BenchOptions o) {
  if (o.threads.empty()) o.threads = {1, resolve_threads(0)};
  std::sort(o.threads.begin(), o.threads.end());
  o.threads.erase(std::unique(o.threads.begin(), o.threads.end()), o.threads.end());
  std::vector<Algo> algos;
  for (const auto& a : o.algos) algos.push_back(parse_algo(a));
  // The report's folder, checked before hours of runs: not a file, creatable.
  {
    std::error_code ec;
    if (std::filesystem::exists(o.out, ec) && !std::filesystem::is_directory(o.out, ec))
      throw InputError(o.out + ": --out names a file; bench writes a folder of reports there");
    std::filesystem::create_directories(o.out, ec);
    if (ec) throw InputError(o.out + ": cannot create the report folder: " + ec.message());
  }
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
    BenchDataset ds = e.info;
    if (!std::filesystem::exists(ds.file)) {
      std::fprintf(stderr, "grundy: bench: generating %s (%s)\n", ds.file.c_str(), ds.generator.c_str());
      write_generated(e.spec, ds.file, ds.layered, 1, all);
    }
    const MappedFile file(ds.file);
    const GcsrGame game = read_gcsr(file.bytes(), ds.file, all);
    const CsrView& g = game.game.graph;
    ds.n = g.n;
    ds.m = g.m;
    ds.k = game.game.tokens.size();
    // The reference values, once per dataset, where the baseline fits.
    const bool use_baseline = g.m <= o.baseline_max_edges;
    SgValues want;
    if (use_baseline) want = solve_sg(g, Algo::bgl, all);
    std::map<unsigned, std::vector<double>> floor_samples;  // threads -> every paired floor pass

    for (Algo algo : algos) {
      for (unsigned t : o.threads) {
        if (algo != Algo::level && t != 1) continue;  // serial and bgl use one thread
        std::fprintf(stderr, "grundy: bench: %s, %s, %u thread%s\n", ds.name.c_str(),
                     std::string(algo_name(algo)).c_str(), t, t == 1 ? "" : "s");
        BenchRun run;
        run.dataset = ds.name;
        run.algo = std::string(algo_name(algo));
        run.threads = t;
        run.trials = o.trials;
        run.verified = use_baseline ? "baseline" : "mex rule";
        std::vector<std::pair<std::string, std::vector<double>>> phases;
        std::vector<double> totals, sgs, floors, ratios;
        reset_peak_rss();
        for (std::size_t trial = 0; trial <= o.trials; ++trial) {
          PhaseTimer timer;
          SgValues sg;
          double floor = 0;
          in_arena(t, [&] {
            const ParallelConfig pc{t};
            // Each trial is paired with a floor pass at the same thread
            // count just before it. On a machine whose neighbours come and
            // go, a floor timed once per dataset, minutes before the trial
            // (schema 1), could measure a different machine: wide-l's floor
            // moved from 0.47 to 0.89 s between trials of one run.
            {
              const SgValues values(g.n, g.m);  // freed before the solve: not in its peak memory
              const auto floor_start = std::chrono::steady_clock::now();
              volatile std::uint64_t sink = floor_gather(g, values, pc);
              (void)sink;
              floor = seconds_since(floor_start);
            }
            timer.start("load/validate");
            const MappedFile f(ds.file);
            const GcsrGame loaded = read_gcsr(f.bytes(), ds.file, pc);
            sg = solve_sg(loaded.game.graph, algo, pc, &timer, loaded.layers);
            timer.start("xor");
            volatile sg_t x = nim_sum(sg, loaded.game.tokens);
            (void)x;
            timer.stop();
          });
          if (o.plant_error && g.n > 0) sg.visit([](auto v) { v[0] ^= 1; });
          // Every trial is checked, the warm-up included.
          const auto bad = use_baseline ? compare_sg(sg, want) : check_mex_rule(g, sg, all);
          if (bad) {
            std::fprintf(stderr, "grundy: bench: %s: %s with %u threads: %s\n", ds.name.c_str(), run.algo.c_str(), t,
                         describe_mismatch(*bad, std::uint64_t{bad->node} + 1).c_str());
            return kMismatch;
          }
          if (trial == 0) continue;  // the warm-up is not timed
          double total = 0, solve = 0;
          for (const auto& ph : timer.phases()) {
            auto it = std::find_if(phases.begin(), phases.end(), [&](const auto& p) { return p.first == ph.name; });
            if (it == phases.end()) it = phases.insert(phases.end(), {ph.name, {}});
            it->second.push_back(ph.seconds);
            total += ph.seconds;
            if (ph.name != "load/validate" && ph.name != "xor") solve += ph.seconds;
          }
          totals.push_back(total);
          sgs.push_back(solve);
          floors.push_back(floor);
          if (floor > 0) ratios.push_back(solve / floor);
          floor_samples[t].push_back(floor);
        }
        run.peak_rss_bytes = peak_rss_bytes();
        for (auto& [name, samples] : phases) run.phases.emplace_back(name, Spread::of(samples));
        run.total = Spread::of(totals);
        run.sg = Spread::of(sgs);
        run.floor = Spread::of(floors);
        run.ratio_to_floor = Spread::of(ratios).median;
        report.runs.push_back(run);
      }
    }
    for (const auto& [t, samples] : floor_samples) ds.floor[t] = Spread::of(samples);
    report.datasets.push_back(ds);
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
