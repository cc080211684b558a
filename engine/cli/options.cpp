#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <thread>

#include "command.hpp"
#include "json.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::cli {

namespace {

unsigned cores() {
  const unsigned c = std::thread::hardware_concurrency();
  return c > 0 ? c : 1;
}

}  // namespace

std::optional<std::uint64_t> parse_count(const std::string& text, std::string& why) {
  const auto digits = [](std::string_view s, std::uint64_t& v) {
    if (s.empty()) return false;
    v = 0;
    for (const char c : s) {
      if (c < '0' || c > '9') return false;
      if (v > (UINT64_MAX - static_cast<unsigned>(c - '0')) / 10) return false;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    return true;
  };
  const auto times = [](std::uint64_t a, std::uint64_t b) -> std::optional<std::uint64_t> {
    std::uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
  };
  std::uint64_t base = 0, exp = 0;
  const std::string_view s = text;
  if (const auto caret = s.find('^'); caret != std::string_view::npos) {
    if (!digits(s.substr(0, caret), base) || !digits(s.substr(caret + 1), exp)) return std::nullopt;
    std::optional<std::uint64_t> r = 1;
    for (std::uint64_t i = 0; i < exp && r; ++i) r = times(*r, base);
    if (!r) why = "is past 2^64 - 1";
    return r;
  }
  if (const auto e = s.find_first_of("eE"); e != std::string_view::npos) {
    if (!digits(s.substr(0, e), base) || !digits(s.substr(e + 1), exp)) return std::nullopt;
    std::optional<std::uint64_t> r = base;
    for (std::uint64_t i = 0; i < exp && r; ++i) r = times(*r, 10);
    if (!r) why = "is past 2^64 - 1";
    return r;
  }
  static constexpr std::pair<char, std::uint64_t> kSuffix[] = {
      {'K', 1000}, {'M', 1000000}, {'G', 1000000000}, {'T', 1000000000000}};
  for (const auto& [c, scale] : kSuffix) {
    if (!s.empty() && (s.back() == c || s.back() == c + ('a' - 'A'))) {
      if (!digits(s.substr(0, s.size() - 1), base)) return std::nullopt;
      const auto r = times(base, scale);
      if (!r) why = "is past 2^64 - 1";
      return r;
    }
  }
  if (!digits(s, base)) {
    if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      why = "is past 2^64 - 1";
    return std::nullopt;
  }
  return base;
}

CLI::Validator count_within(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        if (!value.empty() && (value[0] == '-' || value[0] == '+'))
          return "\"" + value + "\" has a sign: a count is a plain number";
        std::string why;
        const auto v = parse_count(value, why);
        if (!v) return "\"" + value + "\" " + (why.empty() ? "is not a count (digits, 1e6, 10M or 2^20)" : why);
        // CLI11 names the option before the message: "--threads: 0 is not ...".
        if (*v < lo || *v > hi) return value + " is not between " + std::to_string(lo) + " and " + std::to_string(hi);
        value = std::to_string(*v);
        return {};
      },
      "");  // no description: the help shows the option's type name (N) alone
}

CLI::Validator number_within(double lo, double hi) {
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size() || !(v >= lo && v <= hi))
          return value + " is not a number between " + json_number(lo) + " and " + json_number(hi);
        return {};
      },
      "");
}

unsigned max_threads() { return std::max(8u, 4 * cores()); }

void add_threads_option(CLI::App& sub, unsigned& threads) {
  add_count(sub, "-t,--threads", threads, "worker threads (default: every core; 4 per core here at most, or 8)", 1,
            max_threads());
}

void add_algo_option(CLI::App& sub, std::string& algo) {
  sub.add_option("--algo", algo,
                 "auto (= level), level (parallel layers), serial (reference DFS), bgl (Boost.Graph baseline)")
      ->type_name("ENGINE")
      ->check(CLI::IsMember(algo_names()))
      ->default_str("auto");
}

void add_loopy_option(CLI::App& sub, std::string& loopy, const std::string& what) {
  sub.add_flag("--loopy{values}", loopy,
               "games with cycles (a self-loop is a pass): " + what +
                   " by generalized SG values (--loopy), or by single-token win/lose/draw alone (--loopy=outcome)")
      ->type_name("MODE")
      ->check(CLI::IsMember({"values", "outcome"}));
}

namespace {
bool g_quiet = false;
}

bool quiet() { return g_quiet; }

void force_quiet() { g_quiet = true; }

Distribution& distribution() {
  static Distribution d;
  return d;
}

void add_quiet_option(CLI::App& sub) {
  sub.add_flag_callback(
      "-q,--quiet", [] { g_quiet = true; }, "no progress line, notes or summary on stderr (errors still)");
}

Engine engine_named(const std::string& algo) {
  switch (parse_algo(algo)) {
    case Algo::automatic: return Engine::automatic;
    case Algo::level: return Engine::level;
    case Algo::serial: return Engine::serial;
    case Algo::bgl: return Engine::bgl;
  }
  return Engine::automatic;
}

unsigned resolve_threads(unsigned requested) {
  if (requested > 0) return requested;
  if (distribution().default_threads > 0) return distribution().default_threads;
  return cores();
}

namespace {
std::string g_command_line;
}

const std::string& command_line() { return g_command_line; }

void set_command_line(int argc, char** argv) {
  g_command_line = "grundy";
  for (int i = 1; i < argc; ++i) g_command_line += std::string(" ") + argv[i];
}

int run_with_threads(unsigned requested, const std::function<int()>& body) {
  if (requested == 0) requested = distribution().default_threads;
  if (requested == 0) return body();
  if (requested > cores() && !quiet())
    std::fprintf(stderr, "grundy: note: %u threads on %u cores: the threads past the cores take turns\n", requested,
                 cores());
  return in_arena(requested, body);
}

}  // namespace grundy::cli
