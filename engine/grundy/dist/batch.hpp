// grundy batch across MPI ranks: rank 0 deals, the others solve.
//
// Rank 0 splits the inputs exactly as one process does (jobs/batch_items.hpp:
// files framed once, a stream read a window at a time) and deals the items
// in chunks to the ranks that ask, two chunks ahead per rank, so a rank held
// up by one huge instance never holds up the rest. A file's item travels as
// its path and byte span (every rank reads the same shared file system); a
// stream's travels as its bytes. Each rank solves its chunk with its own
// threads and sends the results back; rank 0 hands them on in input order.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "grundy/jobs/batch.hpp"

namespace grundy::dist {

/// run_batch's contract across the ranks of MPI_COMM_WORLD: on rank 0 the
/// sink sees every result in input order and the counts are the batch's;
/// the other ranks return empty counts and never call sink or progress.
/// With one rank, run_batch itself.
BatchCounts run_batch_across_ranks(const std::vector<BatchInput>& inputs, const BatchOptions& options,
                                   const std::function<void(const InstanceResult&)>& sink,
                                   const std::function<void(const BatchCounts&, std::uint64_t)>& progress);

}  // namespace grundy::dist
