// How the engine decides between a parallel loop and a plain one.
//
// Parallel primitives stay here, apart from the algorithms: the algorithms
// say how wide a piece of work is, this header says whether it is worth the
// thread pool. With threads == 1 nothing ever reaches oneTBB, so a small
// instance starts no worker thread at all.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstddef>

namespace grundy {

struct ParallelConfig {
  unsigned threads = 1;  ///< worker threads the caller allows (its arena's size)
  /// Loops narrower than this run inline: a parallel_for costs microseconds
  /// to start, about what a few thousand cheap iterations take.
  std::size_t min_parallel = 4096;
  /// Iterations per task in a parallel loop.
  std::size_t grain = 1024;

  bool worth_it(std::size_t width) const { return threads > 1 && width >= min_parallel; }
};

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

}  // namespace grundy
