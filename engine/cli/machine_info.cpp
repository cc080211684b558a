// The facts a benchmark result is meaningless without.
#include <boost/version.hpp>
#include <sys/utsname.h>
#include <unistd.h>

#include <CLI/Version.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "grundy/primitives/arena.hpp"
#include "bench_report.hpp"
#include "grundy/core/memory_budget.hpp"

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

}  // namespace

std::map<std::string, std::string> describe_machine() {
  std::map<std::string, std::string> m;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      m["cpu"] = line.substr(line.find(':') + 2);
      break;
    }
  m["cores"] = std::to_string(std::thread::hardware_concurrency());
  m["memory_bytes"] = std::to_string(physical_memory_bytes());
  struct utsname u {};
  if (::uname(&u) == 0) m["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.machine;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  m["hostname"] = host;
  m["os"] = first_line_of(". /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\"");
  m["compiler"] = std::string("g++ ") + __VERSION__;
  m["onetbb"] = onetbb_version();
  m["boost"] = std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
               std::to_string(BOOST_VERSION % 100);
  m["cli11"] = CLI11_VERSION;
  m["build"] = GRUNDY_BUILD_TYPE;
  return m;
}

std::string source_commit() {
  // A binary carried to another machine (tools/measure/bundle.sh) has no checkout
  // beside it; the bundle's wrapper names the commit it was built from.
  if (const char* carried = std::getenv("GRUNDY_COMMIT"); carried && *carried) return carried;
  const std::string dir = GRUNDY_SOURCE_DIR;
  std::string commit = first_line_of("git -C '" + dir + "' rev-parse --short=12 HEAD 2>/dev/null");
  if (commit.empty()) return "unknown";
  if (!first_line_of("git -C '" + dir + "' status --porcelain --untracked-files=no 2>/dev/null").empty())
    commit += "-dirty";
  return commit;
}

}  // namespace grundy::cli
