// From a partitioned graph's SG values to what grundy solve prints: the
// nim-sum, a winning move, the mex-rule check, and the --sg-out file, each
// rank working on its slice and the answer agreed by collectives.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "grundy/core/game.hpp"
#include "grundy/dist/slice.hpp"
#include "grundy/dist/solve.hpp"
#include "grundy/formats/sg_file.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::dist {

/// XOR of the values under every token (each rank its own tokens).
sg_t nim_sum_across_ranks(const GraphSlice& slice, const DistValues& sg);

/// game.hpp's winning move (the first token whose value x has x ^ X < x,
/// along its first edge to a node of value x ^ X), as the user numbers it.
std::optional<UserMove> move_across_ranks(const GraphSlice& slice, const DistValues& sg, sg_t total);

/// The mex rule at every node of every slice, each rank with its remote
/// successors' values: the first failing node (lowest id) on every rank,
/// with its user id.
struct DistMismatch {
  Mismatch bad;
  std::uint64_t user_node = 0;  ///< 1-based
};
std::optional<DistMismatch> verify_across_ranks(const GraphSlice& slice, const DistValues& sg,
                                                const ParallelConfig& pc);

/// --sg-out: values by the user's ids (a layered file's routed to the rank
/// owning those ids first). To a regular file, every rank writes its part
/// by position into one named temporary that rank 0 renames at the end;
/// for "-", a device or a FIFO, rank 0 writes it all (and for "-" returns
/// the bytes, to print after the verdict). `before_writing` runs on every
/// rank once the temporary exists (tests end a rank there).
std::string write_sg_across_ranks(const std::string& path, SgFileFormat format, const GraphSlice& slice,
                                  const DistValues& sg, const std::function<void()>& before_writing = {});

/// Flips one node's value (global 0-based id) on its owner: --plant-error.
void plant_error(const GraphSlice& slice, DistValues& sg, std::int64_t node);

}  // namespace grundy::dist
