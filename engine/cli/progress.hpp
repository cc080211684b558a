// A progress line on stderr for long jobs, only when stderr is a terminal
// and -q was not given (logs and pipes get nothing). Safe to update from any
// thread; redraws at most five times a second. With a known total the line
// says the share done and an ETA; without one (a stream), a count and a rate.
#pragma once

#include <unistd.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "command.hpp"

namespace grundy::cli {

/// 7,312: a count with thousands separated.
inline std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// 0:05, 12:40, 2:03:09.
inline std::string clock_text(double seconds) {
  const auto s = static_cast<unsigned long long>(seconds < 0 ? 0 : seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%llu:%02llu", s / 60, s % 60);
  return buf;
}

/// 137 MB/s, 4.2 M edges/s: a rate with an SI prefix.
inline std::string rate_text(double per_second, const char* unit) {
  static constexpr const char* kPrefix[] = {"", "k", "M", "G", "T"};
  int p = 0;
  while (per_second >= 1000 && p < 4) {
    per_second /= 1000;
    ++p;
  }
  // "137 MB/s" for a unit symbol, "29 M edges/s" for a word.
  const bool word = std::string(unit).size() > 1;
  char buf[64];
  std::snprintf(buf, sizeof buf, per_second < 10 ? "%.1f %s%s%s/s" : "%.0f %s%s%s/s", per_second, kPrefix[p],
                word && p > 0 ? " " : "", unit);
  return buf;
}

class Progress {
 public:
  explicit Progress(std::string what) : what_(std::move(what)), enabled_(::isatty(STDERR_FILENO) == 1 && !quiet()) {}
  ~Progress() { finish(); }

  /// Whether the line is drawn at all (stderr a terminal, no -q).
  bool enabled() const { return enabled_; }

  /// "batch 36% · 7,312 instances · 0 errors · 137 MB/s · ETA 0:05": the
  /// share `done` of `total` (both in the rate's unit), the caller's parts,
  /// the rate and the ETA; for total 0 (a stream's, not known) the parts and
  /// the rate alone.
  void update(std::uint64_t done, std::uint64_t total, const std::vector<std::string>& parts, const char* unit) {
    if (!due()) return;
    const double elapsed = seconds();
    std::string line = what_;
    if (total > 0) {
      char pct[16];
      std::snprintf(pct, sizeof pct, " %.0f%%",
                    100.0 * static_cast<double>(std::min(done, total)) / static_cast<double>(total));
      line += pct;
    }
    for (const auto& part : parts) line += " · " + part;
    if (elapsed > 0) line += " · " + rate_text(static_cast<double>(done) / elapsed, unit);
    if (total > 0 && done > 0)
      line += " · ETA " +
              clock_text(elapsed * static_cast<double>(total - std::min(done, total)) / static_cast<double>(done));
    draw(line);
  }
  /// Draws `line` as it is (for jobs that say more: bench); `now` draws it
  /// even within the five-a-second bound (a new phase, shown as it starts).
  void show(const std::string& line, bool now = false) {
    if (now && enabled_) last_draw_ = std::chrono::steady_clock::now().time_since_epoch().count();
    if ((now && enabled_) || due()) draw(line);
  }
  void finish() {
    if (drawn_.exchange(false)) std::fprintf(stderr, "\r\033[K");
  }
  /// Seconds since the job started.
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(); }

 private:
  void draw(const std::string& line) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    drawn_ = true;
  }
  // On a terminal, at most five draws a second, from any thread.
  bool due() {
    if (!enabled_) return false;
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    auto last = last_draw_.load(std::memory_order_relaxed);
    return now - last >= 200'000'000 && last_draw_.compare_exchange_strong(last, now);
  }

  std::string what_;
  bool enabled_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<std::int64_t> last_draw_{0};
  std::atomic<bool> drawn_{false};
};

}  // namespace grundy::cli
