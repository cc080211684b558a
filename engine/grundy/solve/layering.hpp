// Topological layers: Kahn's algorithm by rounds.
//
// Round 0 holds the sources; round r+1 the nodes whose last predecessor was
// in round r. On graphs of 65,536 nodes or more each round is in ascending
// id order (locality); smaller ones keep discovery order. No edge joins two nodes of one round, and every edge points
// to a later round, so taking the rounds from the deepest back to the first gives every node its successors' values
// first, without a transposed graph.
#pragma once

#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/solve/indegree_counters.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/core/phase_timer.hpp"

namespace grundy {

/// Layer l is order[begin[l] .. begin[l+1]). Both arrays are 4 bytes a node
/// at most (a chain has one layer per node).
struct Layers {
  Array<node_t> order;
  Array<node_t> begin{0};
  // Scratch, kept so that recomputing into the same object allocates nothing.
  WideInDegrees wide_indegree;
  NarrowInDegrees narrow_indegree;

  std::size_t count() const { return begin.size() - 1; }
  std::size_t width(std::size_t l) const { return begin[l + 1] - begin[l]; }
};

/// Which in-degree counters layering uses (indegree_counters.hpp). `automatic`
/// takes the 1-byte ones from kCachedNodes nodes on, where the 4-byte ones
/// would leave the cache; the others are for tests and benchmarks.
enum class InDegreeWidth { automatic, wide, narrow };

/// Computes the layers; wide rounds run in parallel with per-thread frontier
/// buffers. Throws CycleError (with one cycle) if the graph is not a DAG.
Layers compute_layers(const CsrView& graph, const ParallelConfig& pc);
/// The same into `layers`, reusing its arrays (batch workspaces); with
/// `parts`, adds where the time went (a few clock reads: one pair for the
/// count, one per wide round).
void compute_layers(const CsrView& graph, const ParallelConfig& pc, Layers& layers,
                    InDegreeWidth width = InDegreeWidth::automatic, LayeringParts* parts = nullptr);

}  // namespace grundy
