// grundy: one binary, one subcommand per job. Everything here is plumbing:
// parse the command line, run the chosen command, and turn every failure into
// one line on stderr with the exit code the agreed surface names.
#include <cstdio>
#include <new>
#include <vector>

#include "command.hpp"
#include "grundy/cycle.hpp"
#include "grundy/input_error.hpp"

int main(int argc, char** argv) {
  using namespace grundy;
  CLI::App app{"grundy: solves impartial games on DAGs (Sprague-Grundy), benchmarks itself, "
               "and checks its answers"};
  app.require_subcommand(1, 1);
  cli::set_command_line(argc, argv);
  app.set_version_flag("--version", GRUNDY_VERSION);
  const std::vector<cli::Command> commands = {cli::add_solve(app), cli::add_batch(app), cli::add_bench(app), cli::add_convert(app),
                                              cli::add_gen(app), cli::add_info(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? cli::kOk : cli::kUsage;
  }
  try {
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const InputError& e) {
    std::fprintf(stderr, "grundy: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "grundy: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grundy: %s\n", e.what());
  }
  return cli::kBadInput;
}
