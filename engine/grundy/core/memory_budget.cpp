#include "grundy/core/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "grundy/core/input_error.hpp"

namespace grundy {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return UINT64_MAX;  // unknown: do not refuse
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::uint64_t memory_budget_bytes() {
  // Read once: the parser asks for every instance of a batch. A value that
  // is not a size is an error (thrown again at each call), never ignored.
  static const std::uint64_t budget = [] {
    std::uint64_t budget = physical_memory_bytes();
    const char* env = std::getenv("GRUNDY_MEMORY_LIMIT");
    if (env == nullptr || *env == '\0') return budget;
    const std::string text = env;
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    const std::string suffix = text.substr(digits);
    unsigned shift = 0;
    if (suffix == "K" || suffix == "k")
      shift = 10;
    else if (suffix == "M" || suffix == "m")
      shift = 20;
    else if (suffix == "G" || suffix == "g")
      shift = 30;
    else if (suffix == "T" || suffix == "t")
      shift = 40;
    else if (!suffix.empty())
      digits = 0;
    const std::uint64_t limit = digits > 0 && digits <= 15 ? std::stoull(text.substr(0, digits)) : 0;
    if (limit == 0 || (limit << shift) >> shift != limit)
      throw InputError("GRUNDY_MEMORY_LIMIT: \"" + text +
                       "\" is not a memory size (a positive number of bytes, or with K, M, G or T)");
    return std::min(budget, limit << shift);
  }();
  return budget;
}

std::string size_text(std::uint64_t bytes) {
  static constexpr const char* kUnit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char text[32];
  if (u == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, v < 10 ? "%.1f %s" : "%.0f %s", v, kUnit[u]);
  return text;
}

void require_memory(std::uint64_t bytes, const std::string& where, const std::string& what) {
  const std::uint64_t have = memory_budget_bytes();
  if (bytes <= have) return;
  throw InputError(where + ": " + what + " needs " + size_text(bytes) + ", more than the " + size_text(have) +
                   " of memory this process may use");
}

}  // namespace grundy
