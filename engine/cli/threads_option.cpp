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

}  // namespace grundy::cli
