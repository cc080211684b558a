// A progress line on stderr for long jobs, only when stderr is a terminal
// (logs and pipes get nothing). Safe to update from any thread; redraws at
// most five times a second.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace grundy::cli {

class Progress {
 public:
  Progress(std::string what, std::uint64_t total)
      : what_(std::move(what)), total_(total), enabled_(::isatty(STDERR_FILENO) == 1) {}
  ~Progress() { finish(); }

  /// For jobs that learn their size only once they have started.
  void set_total(std::uint64_t total) { total_.store(total, std::memory_order_relaxed); }

  void update(std::uint64_t done) {
    if (!due()) return;
    const std::uint64_t total = total_.load(std::memory_order_relaxed);
    std::fprintf(stderr, "\r%s: %5.1f%% (%llu of %llu)", what_.c_str(),
                 total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0,
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
    drawn_ = true;
  }
  /// Draws `line` in place of the percentage (for jobs that say more: bench).
  void show(const std::string& line) {
    if (!due()) return;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    drawn_ = true;
  }
  void finish() {
    if (drawn_.exchange(false)) std::fprintf(stderr, "\r\033[K");
  }

 private:
  // On a terminal, at most five draws a second, from any thread.
  bool due() {
    if (!enabled_) return false;
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    auto last = last_draw_.load(std::memory_order_relaxed);
    return now - last >= 200'000'000 && last_draw_.compare_exchange_strong(last, now);
  }

  std::string what_;
  std::atomic<std::uint64_t> total_;
  bool enabled_;
  std::atomic<std::int64_t> last_draw_{0};
  std::atomic<bool> drawn_{false};
};

}  // namespace grundy::cli
