// The man page and the shell completions, generated from the CLI's own
// definitions (every command, option, value set and help text), so that
// they never drift from `grundy COMMAND --help`. The build writes them with
// `grundy help --man` and `grundy help --completion bash|zsh`, and
// `cmake --install` installs them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace grundy::cli {

/// grundy(1) in roff (man -l grundy.1).
std::string man_page(const CLI::App& root);

/// A bash completion script (`complete -F _grundy grundy`).
std::string bash_completion(const CLI::App& root);

/// A zsh completion function (#compdef grundy), for a folder on $fpath.
std::string zsh_completion(const CLI::App& root);

}  // namespace grundy::cli
