// Solving many instances in one process: files, folders, and streams of
// concatenated classic instances, in parallel across instances, results in
// input order, a bad instance never stopping the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "grundy/csr_graph.hpp"
#include "grundy/parallel.hpp"
#include "grundy/sg_values.hpp"

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
  std::string name;      ///< the path, or "<path>#<index>" inside a stream
  Status status = Status::error;
  std::string message;   ///< error or mismatch text
  std::string move;      ///< "move <token> <from> <to>" or "move none", with --move
  sg_t nim_sum = 0;
  std::uint64_t n = 0, m = 0, k = 0, depth = 0;
  std::uint64_t bytes = 0;
  double microseconds = 0;
};

/// The files a batch reads: each path as given ("-" is stdin), each folder
/// walked recursively in sorted order for *.in, *.txt and *.gcsr files.
std::vector<std::string> expand_batch_inputs(const std::vector<std::string>& paths);

/// Solves every instance of `files`. `progress(done, total)` is called from
/// any thread as instances finish.
std::vector<InstanceResult> run_batch(const std::vector<std::string>& files, const BatchOptions& options,
                                      const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace grundy
