#include "reference_docs.hpp"

#include <vector>

namespace grundy::cli {
namespace {

// What the generators need of an option, read off CLI11's definition.
struct OptionFacts {
  std::vector<std::string> names;  // "-t", "--threads"
  std::string value;               // "N", "FILE", ...; empty for a flag
  std::vector<std::string> choices;
  std::string default_value;
  std::string help;
  bool positional = false, takes_files = false, many = false;
};

std::vector<std::string> choices_of(const std::string& type) {
  std::vector<std::string> out;
  const auto open = type.find('{'), close = type.find('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string word;
  for (const char c : type.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

std::vector<OptionFacts> options_of(const CLI::App& app) {
  std::vector<OptionFacts> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty() || o->get_name() == "--help" || o->get_name() == "-h,--help") continue;
    OptionFacts f;
    for (const auto& s : o->get_snames()) f.names.push_back("-" + s);
    for (const auto& l : o->get_lnames()) f.names.push_back("--" + l);
    f.positional = o->get_positional() && !o->nonpositional();
    if (f.positional) f.names = {o->get_name()};
    if (f.names.empty() || f.names[0] == "--help" || f.names[0] == "-h") continue;
    const std::string type = o->get_type_name();
    if (o->get_items_expected_max() > 0) {
      f.value = type.substr(0, type.find(':'));
      f.choices = choices_of(type);
      f.takes_files = f.value == "FILE" || f.value == "DIR" || f.value == "PATH";
    }
    f.many = o->get_items_expected_max() > 1 || o->get_expected_max() > 1;
    f.default_value = o->get_default_str();
    f.help = o->get_description();
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<const CLI::App*> commands_of(const CLI::App& root) {
  return root.get_subcommands([](const CLI::App*) { return true; });
}

std::string roff(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string joined(const std::vector<std::string>& words, const std::string& by) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : by) + w;
  return out;
}

void man_options(std::string& page, const CLI::App& app, const std::string& prefix) {
  for (const OptionFacts& f : options_of(app)) {
    page += ".TP\n\\fB" + roff(joined(f.names, ", ")) + "\\fR";
    if (!f.value.empty() && !f.positional) page += " \\fI" + roff(f.value) + "\\fR";
    page += "\n" + roff(f.help);
    if (!f.choices.empty()) page += " One of: " + roff(joined(f.choices, ", ")) + ".";
    if (!f.default_value.empty()) page += " Default: " + roff(f.default_value) + ".";
    page += "\n";
  }
  for (const CLI::App* sub : commands_of(app)) {
    page += ".SS \"" + roff(prefix + " " + sub->get_name()) + "\"\n" + roff(sub->get_description()) + "\n";
    man_options(page, *sub, prefix + " " + sub->get_name());
  }
}

// bash: the words to offer after `prev` (an option taking a value), or
// after a command's own words.
void bash_command(std::string& s, const CLI::App& app, const std::string& path) {
  std::vector<std::string> words;
  std::string values;
  for (const OptionFacts& f : options_of(app)) {
    if (f.positional) continue;
    for (const auto& n : f.names) words.push_back(n);
    if (f.value.empty()) continue;
    const std::string pattern = joined(f.names, "|");
    if (!f.choices.empty())
      values += "        " + pattern + ") COMPREPLY=($(compgen -W \"" + joined(f.choices, " ") +
                "\" -- \"$cur\")); return ;;\n";
    else if (f.takes_files)
      values += "        " + pattern + ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
    else
      values += "        " + pattern + ") return ;;\n";
  }
  std::vector<std::string> subs;
  for (const CLI::App* sub : commands_of(app)) subs.push_back(sub->get_name());
  s += "    \"" + path + "\")\n      case \"$prev\" in\n" + values + "      esac\n";
  s += "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"" + joined(words, " ") +
       "\" -- \"$cur\")); else COMPREPLY=($(compgen -W \"" + joined(subs, " ") +
       "\" -- \"$cur\") $(compgen -f -- \"$cur\")); fi\n      ;;\n";
  for (const CLI::App* sub : commands_of(app)) bash_command(s, *sub, path + " " + sub->get_name());
}

// zsh's _arguments specs: '--algo[help]:ENGINE:(auto level)', in single
// quotes; a bracket in the help is escaped.
std::string zsh_quoted(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '[' || c == ']')
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

void zsh_command(std::string& s, const CLI::App& app, const std::string& name) {
  s += "_grundy_" + name + "() {\n  _arguments -s";
  for (const OptionFacts& f : options_of(app)) {
    const std::string action = !f.choices.empty() ? "(" + joined(f.choices, " ") + ")" : f.takes_files ? "_files" : " ";
    const std::string help = zsh_quoted(f.help);
    if (f.positional) {
      s += " \\\n    '" + std::string(f.many ? "*" : "") + ":" + zsh_quoted(f.names[0]) + ":" + action + "'";
      continue;
    }
    for (const auto& n : f.names) {
      s += " \\\n    '" + std::string(f.many ? "*" : "") + n + "[" + help + "]";
      if (!f.value.empty()) s += ":" + zsh_quoted(f.value) + ":" + action;
      s += "'";
    }
  }
  s += "\n}\n";
}

}  // namespace

std::string man_page(const CLI::App& root) {
  std::string page = ".TH GRUNDY 1 \"\" \"grundy " GRUNDY_VERSION "\" \"User Commands\"\n.ad l\n";
  page += ".SH NAME\ngrundy \\- " + roff(root.get_description().substr(root.get_description().find(':') + 2)) + "\n";
  page +=
      ".SH SYNOPSIS\n\\fBgrundy\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n\\fBgrundy help\\fR "
      "[\\fICOMMAND\\fR]\n.br\n"
      "\\fBgrundy \\-V\\fR [\\fB\\-\\-json\\fR]\n";
  page +=
      ".SH DESCRIPTION\nOne binary with a command per job. Counts take no sign and may be written 1e6, 10M (K, M, "
      "G, T: powers of 1000) or 2^20. Every error is one line on standard error, and no output file is left "
      "half-written.\n";
  page += ".SH COMMANDS\n";
  for (const CLI::App* sub : commands_of(root)) {
    page += ".SS \"grundy " + roff(sub->get_name()) + "\"\n" + roff(sub->get_description()) + "\n";
    man_options(page, *sub, "grundy " + sub->get_name());
  }
  page +=
      ".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nbad input (an error line names the file and the line)\n.TP\n2\n"
      "a usage error\n.TP\n3\n\\-\\-verify found a wrong SG value\n";
  page +=
      ".SH ENVIRONMENT\n.TP\nGRUNDY_MEMORY_LIMIT\nthe memory a run may plan to use (bytes, or with K, M, G, T "
      "suffixes: powers of 1024); default: the machine's physical memory\n.TP\nGRUNDY_HUGE_PAGES\n1: every "
      "array of 2 MiB or more asks for transparent huge pages; 0: none does; default: those of 80 MiB or "
      "more\n.TP\nXDG_CACHE_HOME\nwhere "
      "\\fBgrundy bench\\fR caches generated graphs (in grundy/)\n.TP\nGRUNDY_COMMIT\nthe commit named in "
      "reports and \\-\\-version, for a binary carried away from its build\n";
  page += ".SH SEE ALSO\nREADME.md, docs/OUTPUTS.md (every output format), docs/FORMAT.md (.gcsr), docs/PROFILING.md\n";
  return page;
}

std::string bash_completion(const CLI::App& root) {
  std::vector<std::string> names;
  for (const CLI::App* sub : commands_of(root)) names.push_back(sub->get_name());
  std::string s = "# bash completion for grundy (generated by `grundy help --completion bash`)\n_grundy() {\n";
  s += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n";
  s += "  if (( COMP_CWORD == 1 )); then\n    COMPREPLY=($(compgen -W \"" + joined(names, " ") +
       " help --help -V --version\" -- \"$cur\"))\n    return\n  fi\n";
  s += "  if [[ \"${COMP_WORDS[1]}\" == help ]]; then\n    COMPREPLY=($(compgen -W \"" + joined(names, " ") +
       "\" -- \"$cur\"))\n    return\n  fi\n";
  s += "  local path=\"${COMP_WORDS[1]}\"\n";
  s += "  if (( COMP_CWORD > 2 )) && [[ \"${COMP_WORDS[2]}\" != -* ]] && [[ \"$path\" == bench ]] && "
       "[[ \"${COMP_WORDS[2]}\" == compare ]]; then path=\"bench compare\"; fi\n";
  s += "  case \"$path\" in\n";
  for (const CLI::App* sub : commands_of(root)) bash_command(s, *sub, sub->get_name());
  s += "  esac\n}\ncomplete -o filenames -F _grundy grundy\n";
  return s;
}

std::string zsh_completion(const CLI::App& root) {
  std::string s = "#compdef grundy\n# zsh completion for grundy (generated by `grundy help --completion zsh`)\n";
  for (const CLI::App* sub : commands_of(root)) zsh_command(s, *sub, sub->get_name());
  s += "_grundy() {\n  local -a commands\n  commands=(";
  for (const CLI::App* sub : commands_of(root))
    s += "\n    '" + sub->get_name() + ":" + zsh_quoted(sub->get_description().substr(0, 70)) + "'";
  s += "\n  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n";
  s += "  local command=$words[2]\n  shift words\n  (( CURRENT-- ))\n  case $command in\n";
  for (const CLI::App* sub : commands_of(root))
    s += "    " + sub->get_name() + ") _grundy_" + sub->get_name() + " ;;\n";
  s += "    help) _describe 'command' commands ;;\n  esac\n}\n_grundy \"$@\"\n";
  return s;
}

}  // namespace grundy::cli
