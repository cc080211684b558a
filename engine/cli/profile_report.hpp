// --profile for `grundy solve` and `grundy batch`: the run as a Chrome
// trace-event file (opens in Perfetto and chrome://tracing: traceEvents with
// ph/ts/dur, times in microseconds): the phases and mex steps the run's
// PhaseTimer saw, and each thread's track from the trace recorder.
#pragma once

#include <string>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/core/trace.hpp"
#include "run_stats.hpp"

namespace grundy::cli {

/// The trace: the phases and mex steps of `timer` (when given) on two
/// synthetic tracks, then `recorder`'s tracks, one per thread, and its
/// counters, with the run's facts in the metadata.
/// (Written to `out`, which the caller opened before the work: a bad path
/// fails first.)
void write_profile(OutputFile& out, const PhaseTimer* timer, const trace::Recorder& recorder,
                   const ProfileFacts& facts);

}  // namespace grundy::cli
