// The pieces every `grundy` subcommand shares: how it registers with CLI11
// and the exit codes the agreed surface promises.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <stdexcept>
#include <string>
#include <vector>

#include "grundy/grundy.hpp"

namespace grundy::cli {

enum ExitCode : int { kOk = 0, kBadInput = 1, kUsage = 2, kMismatch = 3 };

/// A mistake in how a command was asked for (exit 2, with a pointer to its
/// help), as opposed to bad input (InputError, exit 1).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A subcommand: its CLI11 node, and what to run when the user picked it.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_bench(CLI::App& root);
Command add_solve(CLI::App& root);
Command add_gen(CLI::App& root);
Command add_batch(CLI::App& root);
Command add_convert(CLI::App& root);
Command add_info(CLI::App& root);

/// Where batch's work runs and which process speaks: `grundy` runs it here;
/// `grundy-mpi` (cli/mpi_main.cpp) deals it across MPI ranks, rank 0 alone
/// writing stdout, notes and the summary.
struct Distribution {
  bool leads = true;             ///< this process writes stdout, notes and the summary
  int ranks = 1;                 ///< processes sharing the work
  unsigned default_threads = 0;  ///< threads when --threads is not given (0: every core)
  /// grundy::batch, or grundy-mpi's across its ranks.
  using BatchFn = BatchTotals (*)(const std::vector<std::string>&, const Options&,
                                  const std::function<void(const BatchResult&)>&, const BatchSettings&);
  BatchFn batch = static_cast<BatchFn>(&grundy::batch);
};
Distribution& distribution();

/// One subcommand's name and how to add it (main() lists them).
struct CommandEntry {
  std::string_view name;
  Command (*add)(CLI::App&);
};

/// A whole command line run: parse, run the chosen command, and turn every
/// failure into one line on stderr with its exit code. `about` heads the help.
int run_cli(int argc, char** argv, std::span<const CommandEntry> commands, const char* name, const char* about);

/// Makes quiet() true (grundy-mpi's ranks past 0).
void force_quiet();

/// The command line as the user typed it (for reports), set by main().
const std::string& command_line();
void set_command_line(int argc, char** argv);

/// A validator for counts and ids: rejects a sign and values outside
/// [lo, hi] (CLI11 names the option before the message), and turns the
/// shorthands 1e6, 10M (K, M, G, T: powers of 1000) and 2^20 into plain
/// decimal.
CLI::Validator count_within(std::uint64_t lo, std::uint64_t hi);

/// The same for a real number (seconds, ratios) in [lo, hi].
CLI::Validator number_within(double lo, double hi);

template <class Value>
struct CountOf {
  using type = Value;
};
template <class T>
struct CountOf<std::vector<T>> {
  using type = T;
};

/// Adds a count option (one value, or a list): shown as N in the help,
/// checked by count_within for [lo, hi] (by default, what its type holds).
template <class Value>
CLI::Option* add_count(CLI::App& sub, const std::string& names, Value& value, const std::string& help,
                       std::uint64_t lo = 0,
                       std::uint64_t hi = std::numeric_limits<typename CountOf<Value>::type>::max()) {
  CLI::Option* o = sub.add_option(names, value, help);
  o->type_name("N")->transform(count_within(lo, hi));
  return o;
}

/// --algo ENGINE (auto, level, serial, bgl), the same on solve and batch.
void add_algo_option(CLI::App& sub, std::string& algo);
/// The API's engine for an --algo name ("auto", "level", "serial", "bgl").
Engine engine_named(const std::string& algo);

/// --loopy[=values|outcome], the same on every command that solves: empty
/// when not given. `what` says what it decides ("win, lose or draw").
void add_loopy_option(CLI::App& sub, std::string& loopy, const std::string& what);

/// -q/--quiet, the same on every command: no progress line, notes or
/// summary on stderr. quiet() says whether it was given.
void add_quiet_option(CLI::App& sub);
bool quiet();

/// "2^20", "1e6", "10M" or plain digits as a number; nullopt (with `why`
/// set past 2^64 - 1) for anything else.
std::optional<std::uint64_t> parse_count(const std::string& text, std::string& why);

/// The most threads a pool may have: a few times the cores (threads past
/// the cores only take turns, and thousands of them make every parallel
/// loop wait on threads that have nothing to do).
unsigned max_threads();

/// Adds `--threads N` (default: every core) to a subcommand.
void add_threads_option(CLI::App& sub, unsigned& threads);

/// The thread count to use: the option's value, or every core when 0.
unsigned resolve_threads(unsigned requested);

/// Runs body with `requested` threads: inside a task_arena of that size (so
/// tests can run more threads than cores) and a global_control cap, or, for
/// 0, as it is, every core allowed and no arena set up.
int run_with_threads(unsigned requested, const std::function<int()>& body);

}  // namespace grundy::cli
