// The command line's plumbing, the same for grundy and grundy-mpi: parse
// it, run the chosen command, and turn every failure into one line on
// stderr with the exit code the agreed surface names.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <new>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "help_command.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/temp_file.hpp"

namespace grundy::cli {

int run_cli(int argc, char** argv, std::span<const CommandEntry> kAll, const char* name, const char* about) {
  CLI::App app{about};
  app.require_subcommand(1, 1);
  app.name(name);
  set_command_line(argc, argv);
  install_interrupt_cleanup();  // SIGXFSZ ignored from the start: `--sg-out -` under ulimit -f is a write error
  app.footer(std::string(name) + " help COMMAND, or " + name + " COMMAND --help, lists a command's options; " + name +
             " -V [--json] the build");
  // Only the subcommand the user named is built: setting up all of CLI11's
  // options took a tenth of a judge-sized `grundy solve`
  // (docs/TUNING.md#cli-start-up). Help, version and mistakes get them all,
  // so the messages list everything.
  const std::string_view first = argc > 1 ? argv[1] : "";
  const bool named = std::any_of(kAll.begin(), kAll.end(), [&](const CommandEntry& e) { return e.name == first; });
  std::vector<Command> commands;
  std::vector<std::string_view> names;
  for (const CommandEntry& e : kAll) {
    names.push_back(e.name);
    if (!named || e.name == first) commands.push_back(e.add(app));
  }
  if (!named) {
    if (const auto rc = answer_before_parsing({argv + 1, argv + argc}, app, names)) return *rc;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // One line, naming the command: "grundy: gen: --tokens: ...".
    std::string where;
    for (const auto& c : commands)
      if (c.app->parsed()) where = std::string(c.app->get_name()) + ": ";
    if (!distribution().leads) return kOk;  // rank 0 says it
    std::fprintf(stderr, "grundy: %s%s (see %s %s--help)\n", where.c_str(), e.what(), name,
                 where.empty() ? "" : (where.substr(0, where.size() - 2) + " ").c_str());
    return kUsage;
  }
  std::string ran;
  try {
    for (const auto& c : commands) {
      if (!c.app->parsed()) continue;
      ran = c.app->get_name();
      const int rc = c.run();
      // What went through stdio (info's report) must have reached stdout.
      if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw InputError("<stdout>: write failed");
      return rc;
    }
  } catch (const UsageError& e) {
    if (!distribution().leads) return kOk;  // the same on every rank: rank 0 says it, and its code is the job's
    std::fprintf(stderr, "grundy: %s: %s (see %s %s --help)\n", ran.c_str(), e.what(), name, ran.c_str());
    return kUsage;
  } catch (const InputError& e) {
    // Across ranks an input error is agreed (dist::together): rank 0 says
    // it, and the others end quietly, so that mpirun, which ends the job at
    // the first non-zero exit, never cuts rank 0 short.
    if (!distribution().leads) return kOk;
    std::fprintf(stderr, "grundy: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "grundy: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grundy: %s\n", e.what());
  }
  return kBadInput;
}

}  // namespace grundy::cli
