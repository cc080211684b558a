// Two threads that run one loop together and meet at barriers, for steps
// too short to pay for a parallel loop each (docs/TUNING.md#paired-rounds).
//
// oneTBB does not promise that two tasks run at once: with its other
// threads busy elsewhere it runs both on one thread, one after the other,
// and a barrier between them would wait forever. So the first task waits a
// bounded time for the second to start, and gives the pair up if it does
// not; the caller then goes on without it.
#pragma once

#include <atomic>
#include <chrono>

#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// A barrier for exactly two threads, which notices when its waits stall
/// (spin_until): the cores are then shared, the other thread is
/// descheduled in turn, and a spinning barrier costs a time slice
/// (docs/TUNING.md#paired-rounds).
class PairBarrier {
 public:
  /// Stalled waits after which wait() says so, unless told otherwise.
  static constexpr unsigned default_max_stalls = 4;

  explicit PairBarrier(unsigned max_stalls = default_max_stalls) : max_stalls_(max_stalls) {}

  /// Returns once both threads have called it; what each wrote before is
  /// seen by the other after. Returns true on both threads, or on neither,
  /// once max_stalls of the waits before this one have stalled.
  bool wait() {
    const unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == 1) {
      // The last to arrive decides for both, from the stalls both recorded
      // before arriving.
      arrived_.store(0, std::memory_order_relaxed);
      stalled_.store(stalls_.load(std::memory_order_relaxed) >= max_stalls_, std::memory_order_relaxed);
      generation_.store(generation + 1, std::memory_order_release);
      return stalled_.load(std::memory_order_relaxed);
    }
    const bool slow = spin_until([&] { return generation_.load(std::memory_order_acquire) != generation; });
    const bool stalled = stalled_.load(std::memory_order_relaxed);  // before the other thread can decide again
    if (slow) stalls_.fetch_add(1, std::memory_order_relaxed);
    return stalled;
  }

 private:
  const unsigned max_stalls_;
  alignas(64) std::atomic<unsigned> arrived_{0};
  alignas(64) std::atomic<unsigned> generation_{0};
  std::atomic<bool> stalled_{false};
  std::atomic<unsigned> stalls_{0};
};

/// Runs body(role, barrier) on two threads at once, as roles 0 and 1, and
/// returns true; or returns false without running it anywhere when no
/// second thread started within `patience` (or pc has one thread). The
/// barrier says it has stalled after `max_stalls` stalled waits.
template <class Body>
bool run_as_pair(const ParallelConfig& pc, const Body& body, unsigned max_stalls = PairBarrier::default_max_stalls,
                 std::chrono::microseconds patience = std::chrono::microseconds(1000)) {
  if (pc.threads < 2) return false;
  constexpr unsigned kGivenUp = 1u << 20;
  std::atomic<unsigned> seats{0};  // tasks started; kGivenUp and more once the first gave up
  PairBarrier barrier(max_stalls);
  bool ran = false;
  for_tasks(pc, 2, [&](std::size_t) {
    const unsigned seat = seats.fetch_add(1, std::memory_order_acq_rel);
    if (seat >= 2) return;  // the pair was given up before this task started
    if (seat == 0) {
      const auto deadline = std::chrono::steady_clock::now() + patience;
      bool gave_up = false;
      spin_until([&] {
        unsigned alone = 1;
        gave_up = std::chrono::steady_clock::now() > deadline &&
                  seats.compare_exchange_strong(alone, kGivenUp, std::memory_order_acq_rel);
        return gave_up || seats.load(std::memory_order_acquire) != 1;
      });
      if (gave_up) return;
      ran = true;
    }
    body(seat, barrier);
  });
  return ran;
}

}  // namespace grundy
