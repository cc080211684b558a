// Named engine configurations for tests, built with designated initialisers:
// each says which thresholds it lowers, so that test-sized graphs take the
// paths (parallel loops, split rounds, mex batches) that big ones take.
#pragma once

#include <cstddef>

#include "grundy/primitives/parallel.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy::test_support {

/// Every loop of `min_parallel` iterations or more parallel, in tasks of
/// `grain`; rounds split and mex values batched on graphs of any size, and
/// one or two threads layering them too (no depth-first path).
inline SolveConfig eager(unsigned threads, std::size_t min_parallel = 8, std::size_t grain = 4) {
  return {{.threads = threads, .min_parallel = min_parallel, .grain = grain},
          {.split_rounds_from = 0, .batch_mex_from = 0, .batch_layered_mex_from = 0, .depth_first_below = 0}};
}

/// Like eager, and the mex pass over random ids on two threads or more as
/// one dataflow loop (no step per layer) on graphs of any size and depth.
inline SolveConfig dataflow(unsigned threads) {
  SolveConfig c = eager(threads);
  c.tuning.dataflow_mex_from = 0;
  c.tuning.dataflow_mean_width = 0;
  return c;
}

/// Like eager, and deep graphs of any size renumbered in a locality order:
/// Kahn rounds are checked every 4 rounds, and the walks start from id
/// blocks of 16 nodes, a task each (the deep-graph path, concurrent walks).
inline SolveConfig deep(unsigned threads) {
  SolveConfig c = eager(threads);
  c.tuning.reorder_deep_from = 0;
  c.tuning.deep_window_rounds = 4;
  c.tuning.walk_block = 16;
  return c;
}

/// Like eager, but the mex pass left as it is (batches only where they pay).
inline SolveConfig eager_loops(unsigned threads, std::size_t min_parallel = 8, std::size_t grain = 4) {
  return {{.threads = threads, .min_parallel = min_parallel, .grain = grain},
          {.split_rounds_from = 0, .depth_first_below = 0}};
}

/// Rounds counted down by threads that own the counters (on two threads,
/// Tuning::owned_count_max_threads) on graphs of any size, never through the
/// blocked scatter; every loop parallel as in eager.
inline SolveConfig owned_rounds(unsigned threads) {
  return {{.threads = threads, .min_parallel = 8, .grain = 4}, {.owned_rounds_from = 0, .depth_first_below = 0}};
}

/// owned_rounds, with the in-degrees counted as on graphs past
/// Tuning::halved_count_below: each thread reads every edge for its part of
/// the counters.
inline SolveConfig owned_counts(unsigned threads) {
  SolveConfig c = owned_rounds(threads);
  c.tuning.halved_count_below = 0;
  c.tuning.halved_count_hot_bytes = 0;
  return c;
}

/// owned_rounds, with the in-degrees counted as on graphs past
/// Tuning::owned_count_below: through the blocked scatter, on any thread
/// count.
inline SolveConfig scattered_counts(unsigned threads) {
  SolveConfig c = owned_counts(threads);
  c.tuning.owned_count_below = 0;
  return c;
}

/// One thread, every graph layered (no depth-first path): what a graph too
/// big for the depth-first path takes.
inline SolveConfig layered_one_thread() { return {{.threads = 1}, {.depth_first_below = 0}}; }

/// One thread, every graph by the depth-first path.
inline SolveConfig depth_first_one_thread() {
  return {{.threads = 1}, {.depth_first_below = SIZE_MAX, .depth_first_from_edges = 0}};
}

/// Loops only from `min_parallel` iterations, in tasks of `grain`; graph-size
/// thresholds as in production.
inline ParallelConfig loops(unsigned threads, std::size_t min_parallel, std::size_t grain) {
  return {.threads = threads, .min_parallel = min_parallel, .grain = grain};
}

}  // namespace grundy::test_support
