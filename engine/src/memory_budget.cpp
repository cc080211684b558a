#include "grundy/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "grundy/input_error.hpp"

namespace grundy {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return UINT64_MAX;  // unknown: do not refuse
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::uint64_t memory_budget_bytes() {
  // Read once: the parser asks for every instance of a batch.
  static const std::uint64_t budget = [] {
  std::uint64_t budget = physical_memory_bytes();
  if (const char* env = std::getenv("GRUNDY_MEMORY_LIMIT")) {
    char* end = nullptr;
    std::uint64_t limit = std::strtoull(env, &end, 10);
    switch (end && *end ? *end : ' ') {
      case 'G': case 'g': limit <<= 30; break;
      case 'M': case 'm': limit <<= 20; break;
      case 'K': case 'k': limit <<= 10; break;
      default: break;
    }
    if (limit > 0) budget = std::min(budget, limit);
  }
  return budget;
  }();
  return budget;
}

void require_memory(std::uint64_t bytes, const std::string& where, const std::string& what) {
  const std::uint64_t have = memory_budget_bytes();
  if (bytes <= have) return;
  char msg[160];
  std::snprintf(msg, sizeof msg, "%s needs %.1f GiB, more than the %.1f GiB of memory this process may use",
                what.c_str(), static_cast<double>(bytes) / (1u << 30),
                static_cast<double>(have) / (1u << 30));
  throw InputError(where + ": " + msg);
}

}  // namespace grundy
