// grundy::batch over a runner of the engine's batch jobs: one process's
// (run_batch) or, for grundy-mpi, its ranks' (dist::run_batch_across_ranks),
// the public results made from the engine's.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "grundy/grundy.hpp"
#include "grundy/jobs/batch.hpp"

namespace grundy::api {

/// run_batch, or anything with its signature.
using BatchRunner = BatchCounts (*)(const std::vector<BatchInput>&, const BatchOptions&,
                                    const std::function<void(const InstanceResult&)>&,
                                    const std::function<void(const BatchCounts&, std::uint64_t)>&);

/// grundy::batch, the instances solved by `runner`.
BatchTotals batch_with(BatchRunner runner, const std::vector<std::string>& paths, const Options& options,
                       const std::function<void(const BatchResult&)>& each, const BatchSettings& settings);

}  // namespace grundy::api
