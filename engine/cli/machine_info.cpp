// The facts a benchmark result is meaningless without: the machine, its
// memory settings, the build and the libraries, as typed report fields.
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "bench_report.hpp"
#include "build_info.hpp"
#include "grundy/core/memory_budget.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

std::string first_line_of(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[256];
    if (std::fgets(buf, sizeof buf, p)) out = buf;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string file_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "always [madvise] never" -> "madvise".
std::string bracketed(const std::string& line) {
  const auto a = line.find('['), b = line.find(']');
  return a != std::string::npos && b > a ? line.substr(a + 1, b - a - 1) : line;
}

// "32K" -> 32768.
std::uint64_t cache_bytes(const std::string& text) {
  if (text.empty()) return 0;
  std::uint64_t v = std::strtoull(text.c_str(), nullptr, 10);
  if (text.back() == 'K') v <<= 10;
  if (text.back() == 'M') v <<= 20;
  return v;
}

std::string trimmed(std::string s) {
  std::string out;
  for (char c : s)
    if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> describe_machine() {
  std::vector<std::pair<std::string, std::string>> m;
  const auto text = [&](const std::string& k, const std::string& v) { m.emplace_back(k, json_string(v)); };
  const auto number = [&](const std::string& k, std::uint64_t v) { m.emplace_back(k, std::to_string(v)); };
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      text("cpu", trimmed(line.substr(line.find(':') + 2)));
      break;
    }
  number("cores", std::thread::hardware_concurrency());
  // Caches of cpu0: L1 data, L2, L3 (what the engine's thresholds are about).
  // Some virtual machines have no sysfs cache folders: glibc's sysconf
  // (from CPUID) tells the same sizes there.
  const std::string caches = "/sys/devices/system/cpu/cpu0/cache";
  if (std::filesystem::exists(caches + "/index0")) {
    for (int i = 0; i < 8; ++i) {
      const std::string dir = caches + "/index" + std::to_string(i);
      if (!std::filesystem::exists(dir)) break;
      const std::string type = file_line(dir + "/type"), level = file_line(dir + "/level");
      if (type == "Instruction") continue;
      number("l" + level + (type == "Data" ? "d" : "") + "_cache_bytes", cache_bytes(file_line(dir + "/size")));
    }
  } else {
    for (const auto& [key, name] : {std::pair{"l1d_cache_bytes", _SC_LEVEL1_DCACHE_SIZE},
                                    std::pair{"l2_cache_bytes", _SC_LEVEL2_CACHE_SIZE},
                                    std::pair{"l3_cache_bytes", _SC_LEVEL3_CACHE_SIZE}})
      if (const long bytes = ::sysconf(name); bytes > 0) number(key, static_cast<std::uint64_t>(bytes));
  }
  number("memory_bytes", physical_memory_bytes());
  text("thp_enabled", bracketed(file_line("/sys/kernel/mm/transparent_hugepage/enabled")));
  text("thp_defrag", bracketed(file_line("/sys/kernel/mm/transparent_hugepage/defrag")));
  struct utsname u {};
  if (::uname(&u) == 0) text("kernel", std::string(u.sysname) + " " + u.release + " " + u.machine);
  text("os", first_line_of(". /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\""));
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  text("hostname", host);
  for (auto& fact : build_facts())
    if (fact.first != "commit") m.push_back(std::move(fact));
  return m;
}

}  // namespace grundy::cli
