// A locality order for deep graphs: nodes laid out in runs that follow the
// edges, found by many walks at once.
//
// On a deep graph with random ids (a long chain) every Kahn round, like every
// depth-first step, waits for a miss that the previous one's answer names.
// Here rulers (a hashed 1 in 2^ruler_spacing_log2 of the nodes) each start a
// breadth-first walk along out-edges that claims the nodes it reaches and
// stops at other rulers. One thread advances many walks in lockstep, so
// their misses overlap instead of queueing: list ranking's sparse ruling set.
// Each walk's nodes become one run of consecutive new ids, their rows
// copied as the walk reads them; nodes that no ruler reaches (above every
// ruler) are walked from themselves afterwards. Renumbered so, a chain's
// successor is the next id in all but the last node of a run, and the walk
// or the rounds that solve the copy read memory nearly in order
// (docs/TUNING.md#deep-graphs).
#pragma once

#include <memory>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// A graph renumbered in its locality order: old node order[i] is node i of
/// `view`, rows in their order. `order` is a permutation of 0..n-1 in which
/// every walk's nodes are consecutive. Which walk claims a node two walks
/// reach depends on timing with several threads: the order does, the graph
/// it gives does not change any SG value.
struct LocalityRenumbering {
  std::unique_ptr<node_t[]> order;
  std::unique_ptr<edge_t[]> offsets;
  std::unique_ptr<node_t[]> targets;
  CsrView view;

  /// A cycle found in `view`, named in the old ids.
  CycleError in_old_ids(const CycleError& e) const;
};

/// The order and the renumbered copy, built together: the walks place each
/// node's row as they read it, and the rows are then named in the new ids.
/// With a timer, as the phases "locality order" and "renumber".
template <class Target>
LocalityRenumbering renumber_by_locality(const BasicCsr<Target>& graph, const SolveConfig& config,
                                         PhaseTimer* timer = nullptr);

/// Whether the renumbering fits the memory budget beside the graph and
/// `beside` bytes that its caller holds meanwhile.
template <class Target>
bool renumbering_fits(const BasicCsr<Target>& graph, std::uint64_t beside);

}  // namespace grundy
