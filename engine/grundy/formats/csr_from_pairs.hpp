// A parsed text's (source, target) pairs into CSR rows, on several threads
// where the pairs allow: what parse_classic and parse_edge_list build with.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// build_csr (core/csr_graph.hpp): the same rows, in input order, and the
/// first self-loop. Pairs already grouped by source (a sorted edge list:
/// what grundy gen writes and most exported files hold) are made rows in
/// one pass, in parallel, with no counting and no scatter; any other order
/// takes build_csr's counting sort.
std::optional<std::size_t> csr_from_pairs(node_t n, std::span<const node_t> pairs, OwnedGame& out,
                                          const ParallelConfig& pc);

}  // namespace grundy
