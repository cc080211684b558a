// Names the trace's tracks after oneTBB's threads: while one of these
// lives, every thread that enters the arena it was made in gets its track
// ("oneTBB worker N") as it enters, so a worker that never ran a piece still
// shows, idle, in the trace.
#pragma once

#include <tbb/task_scheduler_observer.h>

#include <string>

#include "grundy/core/trace.hpp"

namespace grundy {

class TracedWorkers : public tbb::task_scheduler_observer {
 public:
  /// Observes the calling thread's arena; nothing when tracing is off.
  TracedWorkers() {
    if (trace::active() != nullptr) observe(true);
  }
  ~TracedWorkers() override { observe(false); }
  TracedWorkers(const TracedWorkers&) = delete;
  TracedWorkers& operator=(const TracedWorkers&) = delete;

  void on_scheduler_entry(bool is_worker) override {
    trace::Recorder* recorder = trace::active();
    if (recorder == nullptr || !is_worker) return;
    recorder->name_local("oneTBB worker " + std::to_string(recorder->local().index));
  }
};

}  // namespace grundy
