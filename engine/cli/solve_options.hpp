// grundy solve's options, one definition for grundy and grundy-mpi.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "bench_inputs.hpp"

namespace grundy::cli {

struct SolveOptions {
  std::string input = "-";
  std::string gen;  // --gen SPEC: a generated graph instead of a file
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
  std::string loopy;        // --loopy: "values" or "outcome"; empty: a cycle is an error
  std::string outcome_out;  // --outcome-out FILE: W, L or D a node (with --loopy)
};

/// --gen's SPEC: "SHAPE,nodes=N,..." (bench's gen: inputs, with or without
/// the "gen:"). Throws UsageError naming what is wrong.
GenRequest parse_solve_gen(const std::string& spec);
/// What messages call a generated input: "gen:SPEC".
std::string gen_name(const std::string& spec);

/// GAPBS's report lines on stderr ("Trial Time:          0.01201"), so that
/// stdout keeps the verdict alone.
void report_line(const char* what, const std::string& value);

/// Adds the solve subcommand and its options (filling `o`) to root.
CLI::App* add_solve_options(CLI::App& root, SolveOptions& o);

}  // namespace grundy::cli
