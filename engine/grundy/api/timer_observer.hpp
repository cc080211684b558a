// The grundy command's Observer (grundy.hpp): it holds the engine's own
// PhaseTimer, which the API then hands to the engine to record into
// directly (layering's parts and each mex step too, for --stats and
// --profile); any other observer hears of the phases through a relay.
#pragma once

#include "grundy/core/phase_timer.hpp"
#include "grundy/grundy.hpp"

namespace grundy::api {

struct TimerObserver : Observer {
  explicit TimerObserver(PhaseTimer& t) : timer(t) {}
  PhaseTimer& timer;
};

}  // namespace grundy::api
