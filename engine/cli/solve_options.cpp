#include "solve_options.hpp"

#include <cstdio>

#include "command.hpp"
#include "grundy/formats/sg_file.hpp"

namespace grundy::cli {

GenRequest parse_solve_gen(const std::string& spec) {
  try {
    return parse_gen_spec(spec.starts_with("gen:") ? spec : "gen:" + spec);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--gen: ") + e.what());
  }
}

void report_line(const char* what, const std::string& value) { std::fprintf(stderr, "%-21s%s\n", what, value.c_str()); }

std::string gen_name(const std::string& spec) { return spec.starts_with("gen:") ? spec : "gen:" + spec; }

CLI::App* add_solve_options(CLI::App& root, SolveOptions& o) {
  auto* opts = &o;
  CLI::App* sub = root.add_subcommand("solve", "solve one instance: prints win or lose");
  sub->add_option("input", opts->input,
                  "classic text or .gcsr (told apart by content), or an edge list (.el) (\"-\": stdin)")
      ->type_name("FILE")
      ->default_str("-");
  sub->add_option("--gen", opts->gen,
                  "solve a generated graph instead of a file: SHAPE,nodes=N,edges=M[,tokens=K,seed=S,layers=L] (as "
                  "grundy gen makes it; grundy-mpi makes each rank's slice only)")
      ->type_name("SPEC");
  sub->add_option("--sg-out", opts->sg_out,
                  "write every node's SG value, nodes 1..N: a line each, or binary by --sg-format (\"-\": "
                  "stdout, after the verdict); with --loopy a finite value or inf:K (K: the finite values "
                  "among its successors)")
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
  add_loopy_option(*sub, opts->loopy, "win, lose or draw");
  sub->add_option("--outcome-out", opts->outcome_out,
                  "with --loopy: write every node's single-token outcome, W, L or D, a line each, nodes 1..N")
      ->type_name("FILE");
  add_threads_option(*sub, opts->threads);
  add_quiet_option(*sub);
  return sub;
}

}  // namespace grundy::cli
