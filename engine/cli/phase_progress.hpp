// A progress line for one long run through phases (`solve` of a big file):
// the phase running and the time spent, redrawn by a thread of its own, on
// a terminal only (progress.hpp). Attach it to the run's PhaseTimer.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "grundy/core/memory_budget.hpp"
#include "grundy/core/phase_timer.hpp"
#include "progress.hpp"

namespace grundy::cli {

class PhaseProgress {
 public:
  /// Starts drawing when `input_bytes` is at least `from_bytes` (a small
  /// input is done before a line would help).
  PhaseProgress(const char* what, std::uint64_t input_bytes, PhaseTimer& timer,
                std::uint64_t from_bytes = std::uint64_t{64} << 20)
      : line_(what), what_(what), input_(size_text(input_bytes)) {
    if (input_bytes < from_bytes) return;
    timer_ = &timer;
    timer.on_start = [this](const std::string& phase) {
      const std::lock_guard lock(mutex_);
      phase_ = phase;
    };
    ticker_ = std::thread([this] {
      while (!stop_.load()) {
        std::string phase;
        {
          const std::lock_guard lock(mutex_);
          phase = phase_;
        }
        char elapsed[32];
        std::snprintf(elapsed, sizeof elapsed, "%.1f s", line_.seconds());
        line_.show(what_ + " · " + input_ + " · " + phase + " · " + elapsed);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }
  ~PhaseProgress() {
    finish();
    if (timer_) timer_->on_start = nullptr;
  }
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  /// Stops drawing and clears the line (before anything else goes to stderr).
  void finish() {
    stop_ = true;
    if (ticker_.joinable()) ticker_.join();
    line_.finish();
  }

 private:
  Progress line_;
  PhaseTimer* timer_ = nullptr;
  std::string what_, input_;
  std::mutex mutex_;
  std::string phase_ = "starting";
  std::atomic<bool> stop_{false};
  std::thread ticker_;
};

}  // namespace grundy::cli
