// Solving many instances in one process: files, folders, and streams of
// concatenated classic instances, in parallel across instances, results in
// input order, a bad instance never stopping the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/core/sg_values.hpp"

namespace grundy {

struct BatchOptions {
  ParallelConfig pc;
  bool verify = false;  ///< check every instance against the Boost.Graph baseline
  bool move = false;    ///< find a winning move for every won instance
  /// Instances at least this large are solved one at a time with every
  /// thread (the parallel engine); smaller ones one per thread, in parallel.
  std::size_t big_bytes = std::size_t{16} << 20;
};

struct InstanceResult {
  enum class Status { win, lose, error, mismatch };
  std::string name;  ///< the path, "<path>#<index>" inside a stream, "<path>:<line>" once its count is lost
  Status status = Status::error;
  std::string message;  ///< error or mismatch text
  std::string move;     ///< "move <token> <from> <to>" or "move none", with --move
  sg_t nim_sum = 0;
  std::uint64_t n = 0, m = 0, k = 0, depth = 0;
  std::uint64_t bytes = 0;
  std::uint64_t line = 0;  ///< the line the instance starts on, in a text input (0: not text)
  double microseconds = 0;
};

/// One input of a batch: a path ("-" is stdin), or an entry of a folder
/// that could not be read (`error` says why; it becomes an error line).
struct BatchInput {
  std::string path;
  std::string error;
};

/// The inputs a batch reads: each path as given, each folder walked
/// recursively in sorted order for *.in, *.txt and *.gcsr files (and an
/// error entry for each subfolder or link that cannot be read).
std::vector<BatchInput> expand_batch_inputs(const std::vector<std::string>& paths);

struct BatchCounts {
  std::uint64_t instances = 0, wins = 0, losses = 0, errors = 0, mismatches = 0, bytes = 0;
  void add(const InstanceResult& r);
};

/// Solves every instance of `inputs`, handing each result to `sink` in input
/// order as soon as it and those before it are done (always from one thread
/// at a time). `progress(done, total)` is called as instances finish.
BatchCounts run_batch(const std::vector<BatchInput>& inputs, const BatchOptions& options,
                      const std::function<void(const InstanceResult&)>& sink,
                      const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace grundy
