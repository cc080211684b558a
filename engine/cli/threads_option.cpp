#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <thread>

#include "command.hpp"

namespace grundy::cli {

void add_threads_option(CLI::App& sub, unsigned& threads) {
  sub.add_option("-t,--threads", threads, "worker threads (default: every core)")
      ->check(CLI::Range(1u, 4096u));
}

unsigned resolve_threads(unsigned requested) {
  if (requested > 0) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? cores : 1;
}

namespace {
std::string g_command_line;
}

const std::string& command_line() { return g_command_line; }

void set_command_line(int argc, char** argv) {
  g_command_line = "grundy";
  for (int i = 1; i < argc; ++i) g_command_line += std::string(" ") + argv[i];
}

int run_with_threads(unsigned requested, const std::function<int()>& body) {
  if (requested == 0) return body();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, requested);
  tbb::task_arena arena(static_cast<int>(requested));
  return arena.execute(body);
}

}  // namespace grundy::cli
