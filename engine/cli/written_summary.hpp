// The line `gen` and `convert` end with: what was written, how big, how fast.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "command.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/io/output_file.hpp"
#include "progress.hpp"

namespace grundy::cli {

/// "grundy: gen: wrote x.gcsr: N 100, M 4,950, K 10, 24.0 KiB (4.96 bytes/edge), 3 layers, in 0.01 s"
/// (nothing with -q).
inline void say_written(const char* command, const std::string& path, std::uint64_t n, std::uint64_t m, std::uint64_t k,
                        std::uint64_t layers, double seconds) {
  if (quiet()) return;
  std::string size;
  std::error_code ec;
  const auto bytes = names_stdout(path) ? 0 : std::filesystem::file_size(path, ec);
  if (!names_stdout(path) && !ec) {
    char per_edge[48] = "";
    if (m > 0) std::snprintf(per_edge, sizeof per_edge, " (%.2f bytes/edge)", static_cast<double>(bytes) / m);
    size = ", " + size_text(bytes) + per_edge;
  }
  std::fprintf(stderr, "grundy: %s: wrote %s: N %s, M %s, K %s%s%s in %.2f s\n", command,
               names_stdout(path) ? "<stdout>" : path.c_str(), grouped(n).c_str(), grouped(m).c_str(),
               grouped(k).c_str(), size.c_str(), layers ? (", " + grouped(layers) + " layers,").c_str() : ",", seconds);
}

}  // namespace grundy::cli
