// --stats and --profile for `grundy solve`: what the run's PhaseTimer saw,
// as lines on stderr or as a Chrome trace-event file (opens in Perfetto and
// chrome://tracing: traceEvents with ph/ts/dur, times in microseconds).
#pragma once

#include <string>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"

namespace grundy::cli {

/// Facts of the run the summary and the trace carry besides the timings.
struct ProfileFacts {
  std::string input, algo;
  unsigned threads = 1;
  CsrView graph;
};

void print_stats(const PhaseTimer& timer, const ProfileFacts& facts);
void write_profile(const std::string& path, const PhaseTimer& timer, const ProfileFacts& facts);

}  // namespace grundy::cli
