#include "grundy/core/trace.hpp"

namespace grundy::trace {
namespace {

std::atomic<Recorder*> g_active{nullptr};
std::atomic<std::uint64_t> g_generation{0};

// A thread's buffer in the recorder of a generation: a thread that outlives
// one recorder finds its cached pointer stale by the generation, not freed.
struct Cached {
  std::uint64_t generation = 0;
  Recorder::Thread* thread = nullptr;
};
thread_local Cached t_cached;

}  // namespace

Recorder::Recorder(std::size_t max_events, bool detail)
    : max_events_(max_events), detail_(detail), generation_(++g_generation) {}

Recorder::~Recorder() { stop(); }

void Recorder::start() {
  name_local("main");
  g_active.store(this, std::memory_order_release);
}

void Recorder::stop() {
  Recorder* self = this;
  g_active.compare_exchange_strong(self, nullptr);
}

Recorder* active() { return g_active.load(std::memory_order_acquire); }

Recorder::Thread& Recorder::local() {
  if (t_cached.generation == generation_ && t_cached.thread != nullptr) return *t_cached.thread;
  const std::lock_guard lock(mutex_);
  auto thread = std::make_unique<Thread>();
  thread->index = static_cast<std::uint32_t>(threads_.size());
  thread->name = "worker " + std::to_string(thread->index);
  t_cached = {generation_, thread.get()};
  threads_.push_back(std::move(thread));
  return *t_cached.thread;
}

void Recorder::name_local(std::string name) {
  Thread& thread = local();
  const std::lock_guard lock(mutex_);
  thread.name = std::move(name);
}

std::string Recorder::name_of(const Thread& thread) const {
  const std::lock_guard lock(mutex_);
  return thread.name;
}

void Recorder::add(Event e) {
  Thread& thread = local();
  if (e.merge && !thread.events.empty()) {
    Event& last = thread.events.back();
    if (last.merge && last.name == e.name && e.begin_ns - last.end_ns < kMergeGapNs) {
      last.end_ns = e.end_ns;
      ++last.value0;
      return;
    }
  }
  if (events_.fetch_add(1, std::memory_order_relaxed) >= max_events_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  thread.events.push_back(std::move(e));
}

void Recorder::note_coalesced(const std::string& what) {
  const std::lock_guard lock(mutex_);
  for (const auto& c : coalesced_)
    if (c == what) return;
  coalesced_.push_back(what);
}

std::vector<const Recorder::Thread*> Recorder::threads() const {
  const std::lock_guard lock(mutex_);
  std::vector<const Thread*> out;
  for (const auto& t : threads_) out.push_back(t.get());
  return out;
}

}  // namespace grundy::trace
