// grundy-mpi solve: one graph partitioned over the ranks (dist/solve.hpp).
#pragma once

#include "command.hpp"

namespace grundy::cli {

Command add_solve_across_ranks(CLI::App& root);

}  // namespace grundy::cli
