// SG values of a graph partitioned over MPI ranks (1D: each rank owns a
// range of ids and their rows, dist/slice.hpp).
//
// Peel forward, then mex backward, in super-rounds:
//  - Ghosts: each rank's remote targets, deduplicated into a bitmap; its
//    targets are relabelled in place into slots (own nodes first, then
//    ghosts). Each rank tells each owner which of its nodes it points to
//    (bitmaps, n/P bits a pair), so an owner knows how many ranks still
//    hold an unpeeled predecessor of each node: no in-degree is sent.
//  - Forward (Kahn): a super-round peels everything it can locally, layer
//    after local layer; a ghost whose last local predecessor is peeled sends
//    one "done" to its owner (one id per rank and ghost, not per edge); one
//    exchange per super-round carries them and the round's totals.
//  - When what is left is narrow and small enough, it is gathered to rank 0
//    and solved there by the one-process engine (a chain's depth would cost
//    a collective per node); a cycle is found there too, with its nodes.
//  - Backward: super-rounds in reverse, each rank's local layers in
//    reverse, the mex over own values and ghost values; the values of a
//    super-round's nodes are pushed to the ranks that point to them, each
//    value once per rank.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "grundy/core/huge_array.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/dist/id_set.hpp"
#include "grundy/dist/slice.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy::dist {

/// What a distributed solve measured, on rank 0 (sums and maxima over ranks).
struct DistStats {
  std::vector<std::pair<std::string, double>> phases;    ///< seconds, rank 0's clock, each phase ending in a collective
  std::uint64_t super_rounds = 0;                        ///< forward exchanges
  std::uint64_t local_layers = 0;                        ///< the most local layers on one rank
  std::uint64_t gathered_nodes = 0, gathered_edges = 0;  ///< what rank 0 finished alone
  std::uint64_t ghosts = 0;                              ///< remote targets, summed over ranks
  std::uint64_t collectives = 0;                         ///< rank 0's collective calls
  std::uint64_t exchange_bytes = 0;                      ///< ...of which the solve's own exchanges
};

/// A slice's SG values and those of its ghosts (what verify and move need).
struct DistValues {
  Array<sg_t> values;  ///< slice nodes first (lo..hi), then ghosts
  IdSet ghosts;        ///< ghost slot own + i is node ghosts.id(i)
  node_t own = 0;      ///< slice nodes

  sg_t of_slot(node_t slot) const { return values[slot]; }
};

/// Solves the partitioned graph: every rank calls it with its slice (whose
/// targets become slots: t < own is node lo + t, else ghost t - own).
/// Throws InputError on every rank for a cycle (its nodes named).
DistValues solve_across_ranks(GraphSlice& slice, const ParallelConfig& pc, DistStats& stats);

}  // namespace grundy::dist
