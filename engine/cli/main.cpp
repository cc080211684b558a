// grundy: one binary, one subcommand per job (cli/run_cli.cpp is the
// plumbing every command shares).
#include "command.hpp"

#if defined(__SANITIZE_ADDRESS__)
// oneTBB frees a task_scheduler_observer's proxy lazily, on a worker that
// may still be parked at exit, after observe(false): LeakSanitizer then
// reports that proxy on every traced run (primitives/traced_workers.hpp).
extern "C" const char* __lsan_default_suppressions() { return "leak:r1::observe\n"; }
#endif

int main(int argc, char** argv) {
  using namespace grundy::cli;
  static constexpr CommandEntry kCommands[] = {{"solve", add_solve},     {"batch", add_batch}, {"bench", add_bench},
                                               {"convert", add_convert}, {"gen", add_gen},     {"info", add_info}};
  return run_cli(argc, argv, kCommands, "grundy",
                 "grundy: solves impartial games on DAGs (Sprague-Grundy), benchmarks itself, and checks its answers");
}
