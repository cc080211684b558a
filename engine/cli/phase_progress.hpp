// A progress line for one long run through phases (`solve` of a big file):
// the phase running and the time spent, redrawn by a thread of its own, on
// a terminal only (progress.hpp). Attach it to the run's PhaseTimer.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "grundy/core/memory_budget.hpp"
#include "grundy/core/phase_timer.hpp"
#include "progress.hpp"

namespace grundy::cli {

class PhaseProgress {
 public:
  /// Starts drawing when `input_bytes` is at least `from_bytes` (a small
  /// input is done before a line would help) and the line is shown at all:
  /// no thread runs for a log, a pipe or -q.
  PhaseProgress(const char* what, std::uint64_t input_bytes, PhaseTimer& timer,
                std::uint64_t from_bytes = std::uint64_t{64} << 20)
      : line_(what), what_(what), input_(size_text(input_bytes)) {
    if (input_bytes < from_bytes || !line_.enabled()) return;
    timer_ = &timer;
    timer.on_start = [this](const std::string& phase) {
      {
        const std::lock_guard lock(mutex_);
        phase_ = phase;
        changed_ = true;
      }
      wake_.notify_all();
    };
    ticker_ = std::thread([this] { tick(); });
  }
  ~PhaseProgress() {
    finish();
    if (timer_) timer_->on_start = nullptr;
  }
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  /// Stops drawing and clears the line (before anything else goes to stderr).
  void finish() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
    line_.finish();
  }

 private:
  // A new phase is drawn as it starts (the line names what runs now, however
  // short); between phases the time is redrawn each tick. Woken at once by
  // finish(): the run's end never waits for a tick.
  void tick() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_ || changed_; });
      if (stop_) break;
      const bool fresh = std::exchange(changed_, false);
      char elapsed[32];
      std::snprintf(elapsed, sizeof elapsed, "%.1f s", line_.seconds());
      const std::string text = what_ + " · " + input_ + " · " + phase_ + " · " + elapsed;
      lock.unlock();
      line_.show(text, fresh);
      lock.lock();
    }
  }

  Progress line_;
  PhaseTimer* timer_ = nullptr;
  std::string what_, input_;
  std::mutex mutex_;
  std::string phase_ = "starting";
  bool changed_ = false, stop_ = false;
  std::condition_variable wake_;
  std::thread ticker_;
};

}  // namespace grundy::cli
