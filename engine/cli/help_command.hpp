// What `grundy` answers before any command runs: the help (with no
// arguments, or `help [COMMAND]`), the version, and a hint for a command
// name that is almost right.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grundy::cli {

/// The known name nearest to `typed` (at most two edits away, or a prefix
/// of it), or empty when none is near.
std::string nearest_name(std::string_view typed, const std::vector<std::string_view>& names);

/// Answers the command lines that name no command to run: none at all,
/// `help [CMD]`, `-V`/`--version [--json]`, and an unknown command. Returns
/// the exit code when it answered, nullopt when a command should parse.
std::optional<int> answer_before_parsing(const std::vector<std::string>& args, CLI::App& app,
                                         const std::vector<std::string_view>& command_names);

}  // namespace grundy::cli
