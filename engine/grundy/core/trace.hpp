// Per-thread spans and counters for `--profile`: what each worker ran, and
// when, in the Chrome trace event format's terms (cli/profile_report.cpp
// writes them out).
//
// Off (no Recorder started), a span or a counter costs one load of a global
// pointer and a branch; the engine places them per parallel piece, per
// round or per step, never per node or edge. On, each thread appends to its
// own buffer (no lock after its first event), and the recorder keeps at
// most `max_events` events in all, counting what it drops.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace grundy::trace {

/// One span ('X') or counter sample ('C'). Names point at string literals;
/// `label`, when set, names the span instead (a batch instance's name).
struct Event {
  const char* name = "";
  const char* cat = "";
  char ph = 'X';
  std::int64_t begin_ns = 0, end_ns = 0;  ///< since the recorder started
  const char* key0 = nullptr;             ///< up to two numeric arguments
  const char* key1 = nullptr;
  std::uint64_t value0 = 0, value1 = 0;
  std::string label;
  /// Merges into the thread's previous span of the same name when it starts
  /// within kMergeGapNs of that one's end (value0 then counts the pieces):
  /// for pieces by the thousand, back to back, whose gaps are what matter.
  bool merge = false;
};

inline constexpr std::int64_t kMergeGapNs = 2000;

class Recorder {
 public:
  struct Thread {
    std::uint32_t index = 0;  ///< 0: the thread that started the recorder
    std::string name;
    std::vector<Event> events;
  };

  /// The bound keeps a trace file under 50 MB (docs/TUNING.md#profiling-cost).
  /// Without `detail`, only
  /// the spans that ask for no detail are kept (a batch: its instances).
  explicit Recorder(std::size_t max_events = 300000, bool detail = true);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Makes this the recorder that spans and counters go to (until stop()).
  void start();
  void stop();

  std::chrono::steady_clock::time_point origin() const { return origin_; }
  std::int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_).count();
  }
  /// The calling thread's buffer (made on its first event).
  Thread& local();
  /// Names the calling thread's track. A thread's name is written and read
  /// under the recorder's lock: a oneTBB worker names itself as it enters an
  /// arena, even one it runs no task in, so nothing else orders that write
  /// before the trace is written.
  void name_local(std::string name);
  /// A thread's name (a copy, taken under the lock).
  std::string name_of(const Thread& thread) const;
  /// Adds `e` to the calling thread's buffer, unless the bound is reached.
  void add(Event e);
  /// Notes that some kind of event was coalesced (rounds into bands).
  void note_coalesced(const std::string& what);

  std::vector<const Thread*> threads() const;
  std::size_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  bool detail() const { return detail_; }
  const std::vector<std::string>& coalesced() const { return coalesced_; }

 private:
  std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
  std::size_t max_events_;
  bool detail_;
  std::atomic<std::size_t> events_{0}, dropped_{0};
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Thread>> threads_;
  std::vector<std::string> coalesced_;
  std::uint64_t generation_;
};

/// The started recorder, or null: tracing is off.
Recorder* active();
/// The started recorder when it keeps the engine's detail (rounds, pieces, counters).
inline Recorder* active_detail() {
  Recorder* r = active();
  return r != nullptr && r->detail() ? r : nullptr;
}

/// A span from construction to destruction, on the calling thread's track.
/// Off, it holds a null pointer and builds nothing.
class Span {
 public:
  /// `detail`: an engine piece, left out of a recorder without detail.
  Span(const char* name, const char* cat, bool detail = true)
      : recorder_(detail ? active_detail() : active()), name_(name), cat_(cat) {
    if (recorder_ != nullptr) begin_ns_ = recorder_->now_ns();
  }
  ~Span() {
    if (recorder_ == nullptr) return;
    Event e;
    e.name = name_;
    e.cat = cat_;
    e.begin_ns = begin_ns_;
    e.end_ns = recorder_->now_ns();
    e.key0 = key_[0];
    e.key1 = key_[1];
    e.value0 = value_[0];
    e.value1 = value_[1];
    if (label_) e.label = std::move(*label_);
    e.merge = merge_;
    recorder_->add(std::move(e));
  }
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

  bool on() const { return recorder_ != nullptr; }
  void arg(const char* key, std::uint64_t value) {
    if (recorder_ == nullptr) return;
    const int k = key_[0] == nullptr ? 0 : 1;
    key_[k] = key;
    value_[k] = value;
  }
  void label(std::string text) {
    if (recorder_ != nullptr) label_ = std::make_unique<std::string>(std::move(text));
  }
  /// See Event::merge; the first argument becomes the count of pieces merged.
  void merge_with_previous() {
    merge_ = true;
    key_[0] = "pieces";
    value_[0] = 1;
  }

 private:
  Recorder* recorder_;
  const char* name_;
  const char* cat_;
  std::int64_t begin_ns_ = 0;
  const char* key_[2] = {nullptr, nullptr};
  std::uint64_t value_[2] = {0, 0};
  bool merge_ = false;
  std::unique_ptr<std::string> label_;  // a pointer: off, a span builds no string
};

/// A sample of counter `name` (a counter track), now.
inline void counter(const char* name, std::uint64_t value) {
  if (Recorder* r = active_detail()) {
    Event e;
    e.name = name;
    e.cat = "counter";
    e.ph = 'C';
    e.begin_ns = e.end_ns = r->now_ns();
    e.key0 = "value";
    e.value0 = value;
    r->add(std::move(e));
  }
}

}  // namespace grundy::trace
