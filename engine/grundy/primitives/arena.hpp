// Running work on an exact number of threads: a oneTBB task_arena of that
// size (more threads than cores when asked: tests and scaling runs need
// that, and global_control alone only caps), under a global_control cap so
// that nested parallelism cannot exceed it either.
#pragma once

#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/version.h>

#include <utility>

namespace grundy {

/// f() with `threads` worker threads, inside an arena of that size.
template <class F>
auto in_arena(unsigned threads, F&& f) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(static_cast<int>(threads));
  return arena.execute(std::forward<F>(f));
}

/// The threads of the arena the caller runs in.
inline unsigned current_arena_threads() { return static_cast<unsigned>(tbb::this_task_arena::max_concurrency()); }

/// The oneTBB version grundy was built against ("2021.8.0").
inline const char* onetbb_version() { return TBB_VERSION_STRING; }

}  // namespace grundy
