// A parsed text's (source, target) pairs into CSR rows, on several threads
// where the pairs allow: what parse_classic and parse_edge_list build with.
#pragma once

#include <cstddef>
#include <optional>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/huge_array.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// The first self-loop among the pairs: its edge (0-based, in input order)
/// and its node.
struct SelfLoop {
  std::size_t edge = 0;
  node_t node = 0;
  bool operator==(const SelfLoop&) const = default;
};

/// build_csr's rows (core/csr_graph.hpp) of the first m pairs of `pairs`
/// (2m ids; what follows them is not read), in input order, and the first
/// self-loop. Pairs already grouped by source (a sorted edge list: what
/// grundy gen writes and most exported files hold) are made rows in place,
/// in parallel, with no counting and no scatter: the targets move to the
/// front of `pairs`' own storage, which becomes out.targets, and `pairs`
/// gets out's old targets in exchange (a scratch to parse into next). A
/// one-shot solve then writes no second array of targets
/// (docs/TUNING.md#csr-from-pairs). Any other order takes build_csr's
/// counting sort into out.targets and leaves `pairs` as it was.
std::optional<SelfLoop> csr_from_pairs(node_t n, std::size_t m, UnzeroedArray<node_t>& pairs, OwnedGame& out,
                                       const ParallelConfig& pc);

}  // namespace grundy
