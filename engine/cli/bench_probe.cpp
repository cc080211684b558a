#include "bench_probe.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace grundy::cli {
namespace {

// A field of /proc/self/status in bytes ("VmHWM:", "VmRSS:"), 0 if absent.
std::uint64_t status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  const std::string key = field;
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return std::stoull(line.substr(key.size())) * 1024;
  return 0;
}

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

}  // namespace

RunProbe::RunProbe() {
  // Memory freed by earlier runs goes back to the system first, so that the
  // high-water mark, reset to the resident size, starts from this run's own.
  ::malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
  rss_at_start_ = status_bytes("VmRSS:");
  at_start_ = read();
  start_ = std::chrono::steady_clock::now();
}

RunProbe::Counters RunProbe::read() {
  Counters c;
  rusage u{};
  if (::getrusage(RUSAGE_SELF, &u) == 0) {
    c.minor = static_cast<std::uint64_t>(u.ru_minflt);
    c.major = static_cast<std::uint64_t>(u.ru_majflt);
    c.voluntary = static_cast<std::uint64_t>(u.ru_nvcsw);
    c.involuntary = static_cast<std::uint64_t>(u.ru_nivcsw);
    c.cpu = seconds(u.ru_utime) + seconds(u.ru_stime);
  }
  std::ifstream stat("/proc/stat");
  std::string line;
  if (std::getline(stat, line) && line.rfind("cpu ", 0) == 0) {
    std::istringstream f(line.substr(4));
    std::uint64_t v[10] = {};
    for (auto& x : v) f >> x;
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    c.busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  }
  return c;
}

RunCost RunProbe::finish() const {
  const Counters now = read();
  RunCost cost;
  cost.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  cost.peak_rss_bytes = status_bytes("VmHWM:");
  cost.rss_at_start_bytes = rss_at_start_;
  cost.minor_faults = now.minor - at_start_.minor;
  cost.major_faults = now.major - at_start_.major;
  cost.voluntary_switches = now.voluntary - at_start_.voluntary;
  cost.involuntary_switches = now.involuntary - at_start_.involuntary;
  cost.cpu_seconds = now.cpu - at_start_.cpu;
  const double tick = 1.0 / static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double busy = static_cast<double>(now.busy_ticks - at_start_.busy_ticks) * tick;
  const double machine = cost.seconds * static_cast<double>(std::max(1u, std::thread::hardware_concurrency()));
  if (machine > 0) cost.others_cpu_share = std::clamp((busy - cost.cpu_seconds) / machine, 0.0, 1.0);
  double load[1] = {0};
  if (::getloadavg(load, 1) == 1) cost.load_average = load[0];
  return cost;
}

bool drop_from_page_cache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ::fdatasync(fd);
  const bool ok = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return ok;
}

}  // namespace grundy::cli
