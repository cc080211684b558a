#include "help_command.hpp"

#include <algorithm>
#include <cstdio>

#include "build_info.hpp"
#include "command.hpp"
#include "reference_docs.hpp"

namespace grundy::cli {

namespace {

// Edits from a to b: insertions, deletions, substitutions and swaps of two
// neighbours ("bnech" is one swap from "bench", two edits from "batch").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string listed(const std::vector<std::string_view>& names) {
  std::string out;
  for (const auto n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

int unknown_command(std::string_view typed, const std::vector<std::string_view>& names) {
  const std::string near = nearest_name(typed, names);
  std::fprintf(stderr, "grundy: unknown command \"%.*s\"%s (commands: %s; see grundy --help)\n",
               static_cast<int>(typed.size()), typed.data(),
               near.empty() ? "" : ("; did you mean \"" + near + "\"?").c_str(), listed(names).c_str());
  return kUsage;
}

}  // namespace

std::string nearest_name(std::string_view typed, const std::vector<std::string_view>& names) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto name : names) {
    const std::size_t d = name.starts_with(typed) && !typed.empty() ? 0 : edit_distance(typed, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  return best;
}

std::optional<int> answer_before_parsing(const std::vector<std::string>& args, CLI::App& app,
                                         const std::vector<std::string_view>& names) {
  if (args.empty()) {
    std::fputs(app.help().c_str(), stdout);
    return kOk;
  }
  const std::string& first = args[0];
  if (first == "-V" || first == "--version") {
    const bool json = args.size() == 2 && args[1] == "--json";
    if (args.size() > 1 && !json) {
      std::fprintf(stderr, "grundy: --version takes only --json (see grundy --help)\n");
      return kUsage;
    }
    std::fputs(version_text(json).c_str(), stdout);
    return kOk;
  }
  if (first == "help") {
    if (args.size() == 1) {
      std::fputs(app.help().c_str(), stdout);
      return kOk;
    }
    // What the build generates from these definitions (reference_docs.hpp).
    if (args[1] == "--man" && args.size() == 2) {
      std::fputs(man_page(app).c_str(), stdout);
      return kOk;
    }
    if (args[1] == "--completion" && args.size() == 3 && (args[2] == "bash" || args[2] == "zsh")) {
      std::fputs((args[2] == "bash" ? bash_completion(app) : zsh_completion(app)).c_str(), stdout);
      return kOk;
    }
    if (args.size() > 2 || args[1].starts_with("-")) {
      std::fprintf(stderr, "grundy: help takes one command, --man or --completion bash|zsh (see grundy --help)\n");
      return kUsage;
    }
    if (std::find(names.begin(), names.end(), args[1]) == names.end()) return unknown_command(args[1], names);
    std::fputs(app.get_subcommand(args[1])->help(app.get_name()).c_str(), stdout);
    return kOk;
  }
  if (!first.starts_with("-") && std::find(names.begin(), names.end(), first) == names.end())
    return unknown_command(first, names);
  return std::nullopt;
}

}  // namespace grundy::cli
