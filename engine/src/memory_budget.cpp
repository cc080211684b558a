#include "grundy/memory_budget.hpp"

#include <unistd.h>

#include <cstdio>

#include "grundy/input_error.hpp"

namespace grundy {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return UINT64_MAX;  // unknown: do not refuse
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

void require_memory(std::uint64_t bytes, const std::string& where, const std::string& what) {
  const std::uint64_t have = physical_memory_bytes();
  if (bytes <= have) return;
  char msg[160];
  std::snprintf(msg, sizeof msg, "%s needs %.1f GiB, more than this machine's %.1f GiB of memory",
                what.c_str(), static_cast<double>(bytes) / (1u << 30),
                static_cast<double>(have) / (1u << 30));
  throw InputError(where + ": " + msg);
}

}  // namespace grundy
