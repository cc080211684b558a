// grundy-mpi solve [FILE|-] [--gen SPEC]: grundy solve's options, the graph
// split over the ranks. A .gcsr file is mapped a slice per rank, --gen makes
// each rank's slice, anything else is loaded by rank 0 and dealt.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "mpi_solve_command.hpp"
#include "solve_options.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/dist/answer.hpp"
#include "grundy/dist/comm.hpp"
#include "grundy/dist/slice.hpp"
#include "grundy/dist/solve.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/io/output_file.hpp"

namespace grundy::cli {
namespace {

std::uint64_t peak_rss_bytes() {
  struct rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss) << 10;
}

struct MpiSolveOptions : SolveOptions {
  int kill_rank = -1;
};

// What one process's options ask that a run across ranks does not do.
void refuse_single_process_options(const SolveOptions& o) {
  const auto refuse = [](const std::string& what) {
    throw UsageError(what + " is grundy's (one process); grundy-mpi solve does not have it");
  };
  if (!o.stats_json.empty()) refuse("--stats-json");
  if (!o.perf_control.empty()) refuse("--perf-control");
  if (!o.profile.empty()) refuse("--profile");
  if (o.trials > 1) refuse("--trials");
  if (!o.loopy.empty()) refuse("--loopy");
  if (!o.outcome_out.empty()) refuse("--outcome-out");
  if (o.algo != "auto" && o.algo != "level")
    throw UsageError("--algo " + o.algo + ": across ranks only the level engine runs (auto or level)");
}

bool is_gcsr_file(const std::string& path) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return false;  // a pipe is read once, by rank 0
  char magic[sizeof kGcsrMagic] = {};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;  // the loader names the problem
  const std::size_t got = std::fread(magic, 1, sizeof magic, f);
  std::fclose(f);
  return looks_like_gcsr({magic, got});
}

void print_stats(const dist::DistStats& st, const dist::GraphSlice& s, unsigned threads) {
  const dist::World& w = dist::world();
  const std::vector<std::uint64_t> peaks = dist::gather_all(peak_rss_bytes());
  if (!w.leads()) return;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d ranks x %u threads, %llu nodes, %llu edges", w.size, threads,
                static_cast<unsigned long long>(s.n), static_cast<unsigned long long>(s.m));
  report_line("Ranks:", buf);
  double total = 0;
  for (const auto& [name, seconds] : st.phases) {
    total += seconds;
    std::snprintf(buf, sizeof buf, "%.5f s", seconds);
    report_line(("Phase " + name + ":").c_str(), buf);
  }
  std::snprintf(buf, sizeof buf, "%.5f s (%.3g edges/s)", total, total > 0 ? static_cast<double>(s.m) / total : 0.0);
  report_line("Solve time:", buf);
  std::snprintf(buf, sizeof buf, "%llu super-rounds, at most %llu local layers on a rank",
                static_cast<unsigned long long>(st.super_rounds), static_cast<unsigned long long>(st.local_layers));
  report_line("Rounds:", buf);
  std::snprintf(buf, sizeof buf, "%llu nodes, %llu edges finished on rank 0",
                static_cast<unsigned long long>(st.gathered_nodes), static_cast<unsigned long long>(st.gathered_edges));
  report_line("Gathered:", buf);
  const double per_edge = s.m > 0 ? static_cast<double>(st.exchange_bytes) / static_cast<double>(s.m) : 0.0;
  std::snprintf(buf, sizeof buf, "%llu bytes sent by all ranks, %.3f bytes per edge; %llu ghosts; %llu collectives",
                static_cast<unsigned long long>(st.exchange_bytes), per_edge,
                static_cast<unsigned long long>(st.ghosts), static_cast<unsigned long long>(st.collectives));
  report_line("Communication:", buf);
  std::string peak;
  for (const std::uint64_t p : peaks) peak += (peak.empty() ? "" : ", ") + std::to_string(p >> 20);
  report_line("Peak RSS (MiB):", peak + " (rank 0, 1, ...)");
}

int solve_across_ranks(const MpiSolveOptions& o) {
  refuse_single_process_options(o);
  if (!o.gen.empty() && o.input != "-") throw UsageError("give an input file or --gen SPEC, not both");
  const dist::World& w = dist::world();
  const ParallelConfig pc{resolve_threads(o.threads)};
  // Outputs checked before the work, as grundy solve does.
  dist::together([&] {
    if (!w.leads()) return;
    if (!o.sg_out.empty() && same_file(o.sg_out, o.input))
      throw InputError("--sg-out " + o.sg_out + ": that is the input file; name another");
    if (!o.sg_out.empty() && !names_stdout(o.sg_out)) require_writable(o.sg_out);
  });
  const SgFileFormat sg_format = sg_file_format(o.sg_format, o.sg_out);
  const auto start = std::chrono::steady_clock::now();
  dist::GraphSlice slice = !o.gen.empty() ? dist::generate_slice(parse_solve_gen(o.gen).spec, gen_name(o.gen), pc)
                           : is_gcsr_file(o.input) ? dist::map_gcsr_slice(o.input, pc)
                                                   : dist::deal_loaded_game(o.input, pc);
  dist::DistStats stats;
  stats.phases.emplace_back("load", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  dist::DistValues sg;
  dist::together([&] { sg = dist::solve_across_ranks(slice, pc, stats); });
  dist::plant_error(slice, sg, o.plant_error);
  if (o.verify) {
    const auto bad = dist::verify_across_ranks(slice, sg, pc);
    if (bad) {
      if (w.leads()) {
        report_line("Verification:", "FAIL");
        std::fprintf(stderr, "grundy: %s: %s\n", slice.name.c_str(),
                     describe_mismatch(bad->bad, bad->user_node).c_str());
      }
      // Rank 0's code is the job's; another rank exiting non-zero first
      // would have mpirun end rank 0 before it speaks.
      return w.leads() ? kMismatch : kOk;
    }
    if (w.leads())
      report_line("Verification:", "PASS (verified: mex rule at every node across " + std::to_string(w.size) +
                                       " ranks, " + std::to_string(slice.n) + " nodes, " + std::to_string(slice.m) +
                                       " edges)");
  }
  const sg_t total = dist::nim_sum_across_ranks(slice, sg);
  std::optional<UserMove> move;
  if (o.move) move = dist::move_across_ranks(slice, sg, total);
  std::string sg_stdout;
  slice.release_rows();  // the values are all --sg-out needs
  if (!o.sg_out.empty())
    sg_stdout = dist::write_sg_across_ranks(o.sg_out, sg_format, slice, sg, [&] {
      if (o.kill_rank == w.rank) std::raise(SIGKILL);
    });
  stats.collectives = w.collectives;
  if (o.stats) print_stats(stats, slice, pc.threads);
  if (!w.leads()) return kOk;
  OutputFile out("-");
  out.write(total != 0 ? "win\n" : "lose\n");
  if (o.move) out.write(move_text(move) + "\n");
  out.write(sg_stdout);
  out.commit();
  return kOk;
}

}  // namespace

Command add_solve_across_ranks(CLI::App& root) {
  auto opts = std::make_shared<MpiSolveOptions>();
  CLI::App* sub = add_solve_options(root, *opts);
  sub->add_option("--kill-rank", opts->kill_rank,
                  "testing only: this rank kills itself (SIGKILL) as --sg-out's temporary file is made")
      ->group("");
  sub->description("solve one graph split over the ranks: prints win or lose (rank 0)");
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return solve_across_ranks(*opts); }); }};
}

}  // namespace grundy::cli
