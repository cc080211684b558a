// What every call of the public API does around the engine (api/): one
// exception type for every failure, the threads asked for, the observer's
// timer, the engine chosen. Internal to the API's sources.
#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/api/timer_observer.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/grundy.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::api {

// Every internal failure as the one exception type users catch (an
// impossible request as its ArgumentError).
template <class F>
decltype(auto) translating(const std::string& name, F&& f) {
  try {
    return naming_cycles(name, std::forward<F>(f));
  } catch (const InputError& e) {
    throw Error(e.what());
  } catch (const std::invalid_argument& e) {
    throw ArgumentError(e.what());
  }
}

// f() on `threads` threads (0: every core, no arena of our own).
template <class F>
decltype(auto) with_threads(unsigned threads, F&& f) {
  if (threads == 0) return f(ParallelConfig{std::max(1u, std::thread::hardware_concurrency())});
  // Already in an arena of that size (the grundy command's): none of our own.
  if (threads == current_arena_threads()) return f(ParallelConfig{threads});
  return in_arena(threads, [&] { return f(ParallelConfig{threads}); });
}

// The timer the engine records into for options.observer: the one a
// TimerObserver holds (the CLI's), else `own`, which tells the observer of
// each phase; null without an observer.
inline PhaseTimer* timer_for(const Options& o, std::optional<PhaseTimer>& own) {
  if (o.observer == nullptr) return nullptr;
  if (auto* own_timer = dynamic_cast<TimerObserver*>(o.observer)) return &own_timer->timer;
  own.emplace();
  Observer* const observer = o.observer;
  own->on_start = [observer](const std::string& name) { observer->phase_started(name); };
  own->on_stop = [observer](const PhaseTimer::Phase& p) { observer->phase_finished(p.name, p.seconds); };
  return &*own;
}

// Ends the call's last phase, so that the observer hears of it.
inline void end_phases(PhaseTimer* timer) {
  if (timer) timer->stop();
}

inline Algo algo_of(Engine e) {
  switch (e) {
    case Engine::automatic: return Algo::automatic;
    case Engine::level: return Algo::level;
    case Engine::serial: return Algo::serial;
    case Engine::bgl: return Algo::bgl;
  }
  return Algo::automatic;
}

}  // namespace grundy::api
