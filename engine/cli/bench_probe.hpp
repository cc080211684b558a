// What a benchmark run cost the machine, and what else the machine was
// doing meanwhile: its own peak memory (the high-water mark reset before
// it), page faults and context switches, and the CPU that other processes
// took (from /proc/stat), with the load average at its end.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace grundy::cli {

struct RunCost {
  double seconds = 0;
  std::uint64_t peak_rss_bytes = 0;      ///< VmHWM since the run started
  std::uint64_t rss_at_start_bytes = 0;  ///< resident when it started (mapped inputs, kept references)
  std::uint64_t minor_faults = 0, major_faults = 0;
  std::uint64_t voluntary_switches = 0, involuntary_switches = 0;
  double cpu_seconds = 0;       ///< this process, user + system
  double others_cpu_share = 0;  ///< of the whole machine (all cores), taken by other processes
  double load_average = 0;      ///< 1-minute, at the end
};

/// Starts measuring on construction; finish() gives the run's cost.
class RunProbe {
 public:
  RunProbe();
  RunCost finish() const;

 private:
  struct Counters {
    std::uint64_t minor = 0, major = 0, voluntary = 0, involuntary = 0;
    double cpu = 0;
    std::uint64_t busy_ticks = 0;  ///< every CPU's non-idle ticks (/proc/stat)
  };
  static Counters read();
  std::chrono::steady_clock::time_point start_;
  Counters at_start_;
  std::uint64_t rss_at_start_ = 0;
};

/// Drops `path` from the page cache (a cold trial reads it from the disk),
/// where the kernel lets it; false when it could not.
bool drop_from_page_cache(const std::string& path);

}  // namespace grundy::cli
