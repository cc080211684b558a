// How the engine decides between a parallel loop and a plain one.
//
// Parallel primitives stay here, apart from the algorithms: the algorithms
// say how wide a piece of work is, this header says whether it is worth the
// thread pool. With threads == 1 nothing ever reaches oneTBB, so a small
// instance starts no worker thread at all.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <span>
#include <thread>
#include <type_traits>
#include <vector>

#include "grundy/core/csr_graph.hpp"

namespace grundy {

struct ParallelConfig {
  unsigned threads = 1;  ///< worker threads the caller allows (its arena's size)
  /// Loops narrower than this run inline: a parallel_for costs microseconds
  /// to start, about what a few thousand cheap iterations take.
  std::size_t min_parallel = 4096;
  /// Iterations per task in a parallel loop.
  std::size_t grain = 1024;
  /// A loop narrower than min_parallel is still split when its iterations
  /// carry heavy_work / threads units between them (edges), in tasks of
  /// half that: power-law graphs hold most of their edges in layers too
  /// narrow by nodes alone. The split pays more with more threads, so the
  /// bar falls with them (docs/TUNING.md#heavy-layers).
  std::size_t heavy_work = std::size_t{1} << 14;
  /// Edges that make a narrow loop worth splitting, at this thread count.
  std::size_t min_parallel_work() const { return std::max<std::size_t>(1, heavy_work / std::max(1u, threads)); }

  bool worth_it(std::size_t width) const { return threads > 1 && width >= min_parallel; }
  /// Whether a loop of `width` iterations is decided by its work: narrower
  /// than min_parallel, yet wide enough to share (a chain's 10^7 one-node
  /// layers are never weighed).
  bool weighs(std::size_t width) const { return threads > 1 && width >= 64 && width < min_parallel; }
  /// Whether `width` iterations holding `work` units in all are worth a
  /// parallel loop: wide enough, or heavy enough.
  bool worth_it(std::size_t width, std::size_t work) const {
    return worth_it(width) || (threads > 1 && width >= 2 && work >= min_parallel_work());
  }
  /// The grain for such a loop: `grain` iterations for a wide one (as
  /// measured); for a heavy narrow one, about min_parallel_work() / 2 units
  /// a task.
  std::size_t grain_for(std::size_t width, std::size_t work) const {
    if (width >= min_parallel || work == 0) return grain;
    return std::clamp<std::size_t>(width * std::max<std::size_t>(1, min_parallel_work() / 2) / work, 1, grain);
  }
};

/// One T per worker thread, made on a thread's first local() (oneTBB's
/// enumerable_thread_specific: iterate it to visit every one made).
template <class T>
using PerThread = tbb::enumerable_thread_specific<T>;

/// Sorts [first, last) in parallel when the range is worth it, else inline.
template <class It>
void sort_range(const ParallelConfig& pc, It first, It last) {
  if (pc.worth_it(static_cast<std::size_t>(last - first))) {
    tbb::parallel_sort(first, last);
  } else {
    std::sort(first, last);
  }
}

/// Lowers `at` to `value` unless it holds a lower one already: the first
/// failing index of a parallel check, the same whatever the thread count.
template <class T, class U>
void lower_to(std::atomic<T>& at, U value) {
  const T v = static_cast<T>(value);
  T cur = at.load(std::memory_order_relaxed);
  while (v < cur && !at.compare_exchange_weak(cur, v)) {
  }
}

/// body(begin, end) over [begin, end): in parallel blocks when the range is
/// wide enough, else once, inline.
template <class Body>
void for_range(const ParallelConfig& pc, std::size_t begin, std::size_t end, const Body& body) {
  if (!pc.worth_it(end - begin)) {
    body(begin, end);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, pc.grain),
                    [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
}

/// body(i, out, shared) for each i of [begin, end), where body appends what
/// it finds to `out` (a std::vector<T>&); everything found lands in `into`,
/// after what it held. `shared` is std::true_type when the loop runs in
/// parallel blocks (each thread appending to its own buffer: writes other
/// iterations may make must then be atomic) and std::false_type when it
/// runs inline. In parallel the order of what is found is not fixed (the
/// set is), so callers must not depend on it.
template <class T, class Body>
void collect_range(const ParallelConfig& pc, std::size_t begin, std::size_t end, std::vector<T>& into,
                   const Body& body) {
  if (!pc.worth_it(end - begin)) {
    for (std::size_t i = begin; i < end; ++i) body(i, into, std::false_type{});
    return;
  }
  PerThread<std::vector<T>> found;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, pc.grain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::vector<T>& out = found.local();
                      for (std::size_t i = r.begin(); i < r.end(); ++i) body(i, out, std::true_type{});
                    });
  for (const std::vector<T>& part : found) into.insert(into.end(), part.begin(), part.end());
}

/// body(k) for each k of [0, tasks), each task its own oneTBB task so that
/// up to pc.threads run at once (for loops whose tasks share out work
/// themselves); with one thread, or one task, inline and in order.
template <class Body>
void for_tasks(const ParallelConfig& pc, std::size_t tasks, const Body& body) {
  if (pc.threads <= 1 || tasks <= 1) {
    for (std::size_t k = 0; k < tasks; ++k) body(k);
    return;
  }
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, tasks, 1),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t k = r.begin(); k < r.end(); ++k) body(k);
      },
      tbb::simple_partitioner());
}

/// A yield that long gave the core to another process; a wait that long
/// outlasts any piece of work a loop hands out.
inline constexpr std::chrono::microseconds stalled_yield{200}, stalled_wait{5000};

/// Spins until ready() is true, yielding after the first 64 tries: the
/// thread it waits for may be descheduled. Returns whether the wait
/// stalled: a yield gave the core away for stalled_yield or more, or the
/// wait lasted stalled_wait (the cores are shared with other work).
template <class Ready>
bool spin_until(const Ready& ready) {
  for (unsigned spins = 0; spins < 64; ++spins)
    if (ready()) return false;
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  bool stalled = false;
  while (!ready()) {
    const auto before = clock::now();
    std::this_thread::yield();
    const auto after = clock::now();
    stalled = stalled || after - before >= stalled_yield || after - start >= stalled_wait;
  }
  return stalled;
}

/// One phase of for_phases: the range [begin, end), in pieces of `grain`.
struct PhaseRange {
  std::size_t begin = 0, end = 0, grain = 1;
};

/// body(b, e, p) over the pieces [b, e) of each phase p, phase after phase
/// as if a barrier stood between them (no piece of a phase starts before
/// every piece of the phases before it has finished, and its writes are
/// seen), but in one parallel loop instead of one per phase: the threads
/// take pieces in order from a shared counter, and a thread whose next piece
/// belongs to a later phase waits only for the pieces still running. Each
/// phase's `done(p)` runs once, on the thread that finished its last piece,
/// when every piece of phases 0..p has finished. No thread ever waits for a
/// piece nobody has taken, so the loop finishes whatever number of threads
/// oneTBB actually lends it (one runs every piece in order).
template <class Body, class Done>
void for_phases(const ParallelConfig& pc, std::span<const PhaseRange> phases, const Body& body, const Done& done) {
  struct Piece {
    std::size_t begin, end, phase;
  };
  std::vector<Piece> pieces;
  std::vector<std::size_t> last;  // per phase: its pieces end before this index
  for (std::size_t p = 0; p < phases.size(); ++p) {
    const std::size_t grain = std::max<std::size_t>(1, phases[p].grain);
    for (std::size_t b = phases[p].begin; b < phases[p].end; b += grain)
      pieces.push_back({b, std::min(phases[p].end, b + grain), p});
    last.push_back(pieces.size());
  }
  // Pieces are taken in order, so when `finished` reaches a phase's first
  // piece, every earlier piece has finished (none of a later phase can
  // have, as it would have waited for them).
  std::atomic<std::size_t> next{0}, finished{0};
  const auto work = [&] {
    for (;;) {
      const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= pieces.size()) return;
      const Piece& piece = pieces[k];
      const std::size_t after = piece.phase == 0 ? 0 : last[piece.phase - 1];  // the earlier phases' pieces
      spin_until([&] { return finished.load(std::memory_order_acquire) >= after; });
      body(piece.begin, piece.end, piece.phase);
      const std::size_t now = finished.fetch_add(1, std::memory_order_acq_rel) + 1;
      // Its phase is complete when it was the phase's last piece to finish
      // (so are empty phases right after it).
      for (std::size_t p = piece.phase; p < last.size() && last[p] == now; ++p) done(p);
    }
  };
  for (std::size_t p = 0; p < last.size() && last[p] == 0; ++p) done(p);  // empty from the start
  if (pc.threads <= 1 || pieces.size() <= 1) return work();
  for_tasks(pc, std::min<std::size_t>(pc.threads, pieces.size()), [&](std::size_t) { work(); });
}

}  // namespace grundy
