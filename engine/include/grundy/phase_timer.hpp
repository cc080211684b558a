// Wall-clock timings of the phases of one run (parse, layering, SG, ...).
//
// The solve path records into one of these; `--stats` prints it and the
// benchmark runner reads it. Phases are kept in the order they ran.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace grundy {

class PhaseTimer {
 public:
  using clock = std::chrono::steady_clock;

  /// Ends the current phase (if any) and starts `name`.
  void start(std::string name) {
    stop();
    current_ = std::move(name);
    began_ = clock::now();
  }
  /// Ends the current phase.
  void stop() {
    if (current_.empty()) return;
    phases_.emplace_back(std::move(current_), std::chrono::duration<double>(clock::now() - began_).count());
    current_.clear();
  }
  /// (name, seconds) for every finished phase, in order.
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }

 private:
  std::vector<std::pair<std::string, double>> phases_;
  std::string current_;
  clock::time_point began_;
};

}  // namespace grundy
