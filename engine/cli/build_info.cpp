#include "build_info.hpp"

#include <boost/version.hpp>

#include <CLI/Version.hpp>
#include <cstdlib>

#include "grundy/primitives/arena.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

constexpr const char* kBuiltCommit =
#include "build_commit.inc"
    ;

std::string compiler() {
#if defined(__clang__)
  return std::string("clang++ ") + __clang_version__;
#else
  return std::string("g++ ") + __VERSION__;
#endif
}

std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
         std::to_string(BOOST_VERSION % 100);
}

}  // namespace

std::string source_commit() {
  if (const char* carried = std::getenv("GRUNDY_COMMIT"); carried && *carried) return carried;
  return kBuiltCommit;
}

std::vector<std::pair<std::string, std::string>> build_facts() {
  return {{"grundy", json_string(GRUNDY_VERSION)},      {"commit", json_string(source_commit())},
          {"build", json_string(GRUNDY_BUILD_TYPE)},    {"march", json_string(GRUNDY_MARCH)},
          {"cxx_flags", json_string(GRUNDY_CXX_FLAGS)}, {"compiler", json_string(compiler())},
          {"onetbb", json_string(onetbb_version())},    {"boost", json_string(boost_version())},
          {"cli11", json_string(CLI11_VERSION)}};
}

std::string version_text(bool json) {
  if (json) {
    std::string out = "{\"schema\": 1";
    for (const auto& [key, value] : build_facts()) out += ", " + json_string(key) + ": " + value;
    return out + "}\n";
  }
  std::string out = "grundy " GRUNDY_VERSION "\n";
  const auto line = [&](const char* what, const std::string& value) { out += std::string(what) + value + "\n"; };
  line("commit    ", source_commit());
  line("build     ", std::string(GRUNDY_BUILD_TYPE) + ", -march=" + GRUNDY_MARCH);
  line("compiler  ", compiler());
  line("oneTBB    ", onetbb_version());
  line("Boost     ", boost_version());
  line("CLI11     ", CLI11_VERSION);
  return out;
}

}  // namespace grundy::cli
