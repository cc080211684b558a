// Topological layers: Kahn's algorithm by rounds.
//
// Round 0 holds the sources; round r+1 the nodes whose last predecessor was
// in round r. On graphs of Tuning::cached_nodes nodes or more each round is in ascending
// id order (locality); smaller ones keep discovery order. No edge joins two nodes of one round, and every edge points
// to a later round, so taking the rounds from the deepest back to the first gives every node its successors' values
// first, without a transposed graph.
#pragma once

#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/solve/indegree_counters.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// Layer l is order[begin[l] .. begin[l+1]). Both arrays are 4 bytes a node
/// at most (a chain has one layer per node).
struct Layers {
  Array<node_t> order;
  Array<node_t> begin{0};

  std::size_t count() const { return begin.size() - 1; }
  std::size_t width(std::size_t l) const { return begin[l + 1] - begin[l]; }
};

/// The in-degree counters of both widths, kept by a caller that layers
/// graph after graph (a batch workspace), so that each layering allocates
/// nothing.
struct InDegreeScratch {
  WideInDegrees wide;
  NarrowInDegrees narrow;
};

/// Which in-degree counters layering uses (indegree_counters.hpp). `automatic`
/// takes the 1-byte ones from Tuning::cached_nodes nodes on, where the 4-byte
/// ones would leave the cache; the others are for tests and benchmarks.
enum class InDegreeWidth { automatic, wide, narrow };

/// Computes the layers; wide rounds run in parallel with per-thread frontier
/// buffers. Throws CycleError (with one cycle) if the graph is not a DAG.
/// (Graphs of either id width: csr_graph.hpp.)
template <class Target>
Layers compute_layers(const BasicCsr<Target>& graph, const SolveConfig& config);
/// The same into `layers`, reusing its arrays and the counters in `scratch`
/// (batch workspaces); with `parts`, adds where the time went (a few clock
/// reads: one pair for the count, one per wide round). With automatic
/// counters, a deep graph (compute_layers_unless_deep) goes on in
/// layer_deep_graph.
template <class Target>
void compute_layers(const BasicCsr<Target>& graph, const SolveConfig& config, Layers& layers, InDegreeScratch& scratch,
                    InDegreeWidth width = InDegreeWidth::automatic, LayeringParts* parts = nullptr);
/// The same, but stops when the rounds turn out deep (from
/// Tuning::reorder_deep_from nodes: a window of deep_window_rounds rounds
/// averaging fewer than deep_round_width nodes, a quarter of the graph still
/// unplaced) and returns false, the layers unfinished: the caller renumbers
/// the graph in a locality order (locality_order.hpp) and layers that. With
/// `stop_small`, a smaller graph stops too, by windows of
/// small_deep_window_rounds rounds: the caller walks it depth first.
template <class Target>
bool compute_layers_unless_deep(const BasicCsr<Target>& graph, const SolveConfig& config, Layers& layers,
                                InDegreeScratch& scratch, LayeringParts* parts = nullptr, bool stop_small = false);
/// After compute_layers_unless_deep stopped: the layers of the deep graph,
/// found on its locality renumbering and given back in its own ids (or, when
/// the copy does not fit the memory budget, by the rounds as its ids lie).
template <class Target>
void layer_deep_graph(const BasicCsr<Target>& graph, const SolveConfig& config, Layers& layers,
                      InDegreeScratch& scratch, LayeringParts* parts = nullptr);
/// The same with counters of its own.
template <class Target>
void compute_layers(const BasicCsr<Target>& graph, const SolveConfig& config, Layers& layers,
                    InDegreeWidth width = InDegreeWidth::automatic, LayeringParts* parts = nullptr);

}  // namespace grundy
