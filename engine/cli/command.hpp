// The pieces every `grundy` subcommand shares: how it registers with CLI11
// and the exit codes the agreed surface promises.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace grundy::cli {

enum ExitCode : int { kOk = 0, kBadInput = 1, kUsage = 2, kMismatch = 3 };

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

/// The command line as the user typed it (for reports), set by main().
const std::string& command_line();
void set_command_line(int argc, char** argv);

/// A validator for counts and ids: rejects a sign and values past 2^64 - 1
/// with the option's name, and turns the shorthands 1e6, 10M (K, M, G, T:
/// powers of 1000) and 2^20 into plain decimal.
CLI::Validator count_text();

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
