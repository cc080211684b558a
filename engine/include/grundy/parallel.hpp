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

#include "grundy/csr_graph.hpp"

namespace grundy {

struct ParallelConfig {
  unsigned threads = 1;  ///< worker threads the caller allows (its arena's size)
  /// Loops narrower than this run inline: a parallel_for costs microseconds
  /// to start, about what a few thousand cheap iterations take.
  std::size_t min_parallel = 4096;
  /// Iterations per task in a parallel loop.
  std::size_t grain = 1024;
  /// Kahn rounds are split between threads only on graphs of this many
  /// nodes or more: below, the in-degrees stay in cache, plain decrements
  /// are cheap, and the blocked scatter's extra pass costs more than a
  /// second thread saves. Layering with 2 threads, split against not split
  /// (`grundy solve --stats --threads 2`, uniform graphs of 10 edges a node):
  /// 10^6 nodes 256 ms against 185-245 (wide-m: 130 against 104-110),
  /// 4*10^6 nodes 725-797 against 917-954, 10^7 nodes 1.82-1.91 s against
  /// 2.69-2.86; on 10^5-node graphs splitting measured 0.58-0.78x. Checked
  /// again with 1-byte counters (indegree_counters.hpp), 5 interleaved runs:
  /// splitting from 2^18 made layering slower still on 10^6 nodes (wide-m
  /// min 79 ms against 62, uniform-m 97 against 88).
  std::size_t min_parallel_graph = std::size_t{1} << 21;
  /// The mex pass gathers values in batches (level_solver.cpp) on graphs of
  /// this many nodes or more: random ids, and layered ids. Below, the values
  /// it gathers stay in cache and the batches only cost.
  std::size_t min_batch_graph = kCachedNodes;
  std::size_t min_batch_layered_graph = std::size_t{1} << 22;

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
