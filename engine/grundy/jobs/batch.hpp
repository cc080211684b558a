// Solving many instances in one process: files, folders, and streams of
// concatenated classic instances, in parallel across instances, results in
// input order, a bad instance never stopping the rest.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/core/game.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy {

struct BatchOptions {
  ParallelConfig pc;
  Algo algo = Algo::level;  ///< the engine for every instance
  bool verify = false;      ///< check every instance against the Boost.Graph baseline
  bool move = false;        ///< find a winning move for every won instance
  LoopyMode loopy = LoopyMode::off;  ///< games with cycles: win, lose or draw
  /// Instances at least this large are solved one at a time with every
  /// thread (the parallel engine); smaller ones one per thread, in parallel.
  std::size_t big_bytes = std::size_t{16} << 20;
  /// A stream on stdin (a pipe) is read this many bytes at a time (more
  /// only while an instance does not fit); files are mapped instead. Small
  /// enough to keep the peak far below a big stream's size, large enough
  /// that the windows' reads and re-framing cost little
  /// (docs/TUNING.md#stream-window).
  std::size_t stream_window = std::size_t{1} << 20;
};

struct InstanceResult {
  enum class Status { win, lose, error, mismatch, draw };
  /// depth of a graph with cycles, which has none
  static constexpr std::uint64_t kNoDepth = ~std::uint64_t{0};
  std::string name;         ///< the path, "<path>#<index>" inside a stream, "<path>:<line>" once its count is lost
  std::string path;         ///< the file it is in ("<stdin>" for -)
  std::uint64_t index = 0;  ///< 1-based place in its file; 0 once a stream's count is lost
  Status status = Status::error;
  std::string message;           ///< error or mismatch text
  bool parsed = false;           ///< n, m, k hold the instance's counts
  bool solved = false;           ///< nim_sum and depth hold its answer
  std::optional<UserMove> move;  ///< with --move: the winning move (none when lost)
  sg_t nim_sum = 0;
  std::uint64_t n = 0, m = 0, k = 0, depth = 0;
  std::uint64_t bytes = 0;
  std::uint64_t line = 0;  ///< the line the instance starts on, in a text input (0: not text)
  double microseconds = 0;
  bool verified = false;  ///< --verify checked it and found it right
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
/// Folders that hold no instance file at all are added to `empty_folders`.
std::vector<BatchInput> expand_batch_inputs(const std::vector<std::string>& paths,
                                            std::vector<std::string>* empty_folders = nullptr);

struct BatchCounts {
  std::uint64_t instances = 0, wins = 0, losses = 0, draws = 0, errors = 0, mismatches = 0, bytes = 0;
  std::uint64_t verified = 0, verified_nodes = 0;  ///< instances that passed --verify, and their nodes
  std::uint64_t bytes_done = 0;                    ///< input bytes of the instances done
  void add(const InstanceResult& r);
};

/// Solves every instance of `inputs`, handing each result to `sink` in input
/// order as soon as it and those before it are done (always from one thread
/// at a time). `progress(counts so far, total input bytes)` is called as
/// instances finish; the total is 0 when a stream's size is not known.
BatchCounts run_batch(const std::vector<BatchInput>& inputs, const BatchOptions& options,
                      const std::function<void(const InstanceResult&)>& sink,
                      const std::function<void(const BatchCounts&, std::uint64_t)>& progress = {});

}  // namespace grundy
