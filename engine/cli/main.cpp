// grundy: one binary, one subcommand per job. Everything here is plumbing:
// parse the command line, run the chosen command, and turn every failure into
// one line on stderr with the exit code the agreed surface names.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <new>
#include <vector>

#include "command.hpp"
#include "help_command.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/temp_file.hpp"

#if defined(__SANITIZE_ADDRESS__)
// oneTBB frees a task_scheduler_observer's proxy lazily, on a worker that
// may still be parked at exit, after observe(false): LeakSanitizer then
// reports that proxy on every traced run (primitives/traced_workers.hpp).
extern "C" const char* __lsan_default_suppressions() { return "leak:r1::observe\n"; }
#endif

int main(int argc, char** argv) {
  using namespace grundy;
  CLI::App app{
      "grundy: solves impartial games on DAGs (Sprague-Grundy), benchmarks itself, "
      "and checks its answers"};
  app.require_subcommand(1, 1);
  app.name("grundy");
  cli::set_command_line(argc, argv);
  install_interrupt_cleanup();  // SIGXFSZ ignored from the start: `--sg-out -` under ulimit -f is a write error
  app.footer("grundy help COMMAND, or grundy COMMAND --help, lists a command's options; grundy -V [--json] the build");
  // Only the subcommand the user named is built: setting up all of CLI11's
  // options took a tenth of a judge-sized `grundy solve`
  // (docs/TUNING.md#cli-start-up). Help, version and mistakes get them all,
  // so the messages list everything.
  struct Entry {
    std::string_view name;
    cli::Command (*add)(CLI::App&);
  };
  static constexpr Entry kAll[] = {{"solve", cli::add_solve},     {"batch", cli::add_batch}, {"bench", cli::add_bench},
                                   {"convert", cli::add_convert}, {"gen", cli::add_gen},     {"info", cli::add_info}};
  const std::string_view first = argc > 1 ? argv[1] : "";
  const bool named = std::any_of(std::begin(kAll), std::end(kAll), [&](const Entry& e) { return e.name == first; });
  std::vector<cli::Command> commands;
  std::vector<std::string_view> names;
  for (const Entry& e : kAll) {
    names.push_back(e.name);
    if (!named || e.name == first) commands.push_back(e.add(app));
  }
  if (!named) {
    if (const auto rc = cli::answer_before_parsing({argv + 1, argv + argc}, app, names)) return *rc;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // One line, naming the command: "grundy: gen: --tokens: ...".
    std::string where;
    for (const auto& c : commands)
      if (c.app->parsed()) where = std::string(c.app->get_name()) + ": ";
    std::fprintf(stderr, "grundy: %s%s (see grundy %s--help)\n", where.c_str(), e.what(),
                 where.empty() ? "" : (where.substr(0, where.size() - 2) + " ").c_str());
    return cli::kUsage;
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
  } catch (const cli::UsageError& e) {
    std::fprintf(stderr, "grundy: %s: %s (see grundy %s --help)\n", ran.c_str(), e.what(), ran.c_str());
    return cli::kUsage;
  } catch (const InputError& e) {
    std::fprintf(stderr, "grundy: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "grundy: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grundy: %s\n", e.what());
  }
  return cli::kBadInput;
}
