// Wall-clock timings of the phases of one run (parse, layering, SG, ...),
// and, when asked, of every layer group of the mex pass.
//
// The solve path records into one of these; `--stats` prints it, `--profile`
// writes it as a Chrome trace, and the benchmark runner reads it. Phases are
// kept in the order they ran, with their start times.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace grundy {

/// Where the level engine's layering spent its time, filled when the run is
/// timed: counting the in-degrees (with setting up the counters), scanning
/// the counters for the next round after each wide round, and the rounds
/// themselves (the rest). A
/// layering that starts over (a count past the 1-byte counters' range)
/// adds both attempts. Seconds; and how many rounds two threads ran as a
/// pair (layering.cpp's paired_rounds).
struct LayeringParts {
  double count = 0, scans = 0, rounds = 0;
  std::uint64_t paired_rounds = 0;

  void add(const LayeringParts& o) {
    count += o.count;
    scans += o.scans;
    rounds += o.rounds;
    paired_rounds += o.paired_rounds;
  }
};

/// One step of the mex pass: a wide layer (one parallel loop) or a run of
/// narrow layers (one plain loop).
struct LayerStat {
  std::uint64_t first_layer = 0, last_layer = 0;  ///< inclusive
  std::uint64_t nodes = 0, edges = 0;
  double start = 0, seconds = 0;  ///< start: seconds since the timer was made
};

/// (The public API's Observer hears of the phases through one of these:
/// on_start, on_stop; api/timer_observer.hpp hands the engine one directly.)
/// What a loopy solve did, for --stats and info: the loopy engine fills it
/// (PhaseTimer::loopy, when the run is timed).
struct LoopyStats {
  struct Stage {
    std::uint64_t labelled = 0;   ///< nodes given the value i in the stage (the peeled ones not counted)
    std::uint64_t infinite = 0;   ///< nodes made infinite at its end
    std::uint64_t rounds = 0;     ///< rounds of the retrograde pass
    std::uint64_t remaining = 0;  ///< nodes still unlabelled after it
    double seconds = 0;
  };
  std::uint64_t peeled = 0;       ///< nodes that cannot reach a cycle
  std::uint64_t peel_rounds = 0;  ///< the longest path from them to a sink, plus one
  std::uint64_t transpose_bytes = 0;
  std::vector<Stage> stages;
};

class PhaseTimer {
 public:
  using clock = std::chrono::steady_clock;

  struct Phase {
    std::string name;
    double start = 0;  ///< seconds since the timer was made
    double seconds = 0;
  };

  /// Ends the current phase (if any) and starts `name`.
  void start(std::string name) {
    stop();
    if (on_start) on_start(name);
    current_ = std::move(name);
    began_ = clock::now();
  }
  /// Ends the current phase.
  void stop() {
    if (current_.empty()) return;
    const auto now = clock::now();
    phases_.push_back({std::move(current_), since(began_), std::chrono::duration<double>(now - began_).count()});
    current_.clear();
    if (on_stop) on_stop(phases_.back());
  }
  /// The index of the last finished phase named `name` (phases().size()
  /// if none): the layering that layering_parts describes, when a deep
  /// graph's first one stopped.
  std::size_t last(std::string_view name) const {
    std::size_t at = phases_.size();
    for (std::size_t i = 0; i < phases_.size(); ++i)
      if (phases_[i].name == name) at = i;
    return at;
  }
  /// Every finished phase, in order.
  const std::vector<Phase>& phases() const { return phases_; }
  /// Seconds from the timer's creation to `t`.
  double since(clock::time_point t) const { return std::chrono::duration<double>(t - created_).count(); }

  /// Called with each phase's name as it starts (a progress line's hook).
  std::function<void(const std::string&)> on_start;
  /// Called with each phase as it ends.
  std::function<void(const Phase&)> on_stop;

  /// Per-layer records: the level engine fills `layers` when this is set
  /// (it costs a clock read and an offsets pass per layer group).
  bool log_layers = false;
  std::vector<LayerStat> layers;
  /// The parts of the "layering" phase (the level engine fills it).
  LayeringParts layering_parts;
  /// The loopy engine's peel and stages (filled through the public API).
  LoopyStats loopy;

 private:
  std::vector<Phase> phases_;
  std::string current_;
  clock::time_point created_ = clock::now();
  clock::time_point began_;
};

}  // namespace grundy
