// The level engine's path on one or two threads for a graph of up to a few
// 10^5 nodes, and for a deep graph's locality renumbering: one depth-first
// pass that takes each node's mex as it leaves the stack.
//
// Layering and the mex pass read every edge three times (in-degree count,
// rounds, mex), which pays where their passes keep misses in flight; where
// the per-node arrays stay near the core a single walk does the same work
// in one pass (docs/TUNING.md#depth-first-path). The values array doubles as the
// walk's state, with two sentinels above every value the graph can hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// The walk's stack and buffers, kept by a caller that solves graph after
/// graph (a batch workspace).
struct DepthFirstScratch {
  struct Frame {
    node_t node;
    node_t below;        // the most nodes on a path from a solved successor
    edge_t next;         // the next edge of `node` to follow
    std::uint64_t seen;  // bit x: a solved successor has value x (below 64)
  };
  std::vector<Frame> path;
  std::vector<node_t> heights;  // nodes on the longest path from each node, with the depth asked for
  BitsetMex mex;
};

/// Whether a graph of n nodes and m edges takes the depth-first pass by its
/// size alone: at most Tuning::depth_first_max_threads threads, fewer than
/// config.tuning.depth_first_below nodes, at least depth_first_from_edges
/// edges or depth_first_from_degree a node, and no value that could reach
/// the walk's sentinels.
bool takes_depth_first(node_t n, edge_t m, const SolveConfig& config);

/// Whether the level engine solves `graph` by the depth-first pass: by its
/// size (above), or, with no depth asked for, whatever its edges: on up to
/// Tuning::depth_first_max_threads threads below depth_first_below nodes,
/// from Tuning::cached_nodes always and from Tuning::depth_first_hub_from
/// where its targets repeat (repeated_target_share of
/// Tuning::repeated_targets_sample targets, at most one per
/// repeated_targets_nodes nodes, at Tuning::repeated_targets_share or
/// more); on one thread, such a graph up to Tuning::depth_first_hub_scale
/// times depth_first_below. The depth costs the walk a
/// second random read an edge (its heights). Such a graph's walk gives up
/// past n / Tuning::hub_walk_depth_share nodes on its path (depth_first_path_bound).
template <class Target>
bool takes_depth_first(const BasicCsr<Target>& graph, const SolveConfig& config, bool with_depth);

/// Whether the level engine walks `graph` depth first where its Kahn rounds
/// turn out deep (windows of small_deep_window_rounds rounds): below both
/// depth_first_below and reorder_deep_from nodes, on as many threads as the
/// size rule walks, with values below the walk's sentinels.
template <class Target>
bool walks_when_deep(const BasicCsr<Target>& graph, const SolveConfig& config);

/// Whether the level engine walks a deep graph's locality renumbering
/// (locality_order.hpp) depth first instead of layering it: on up to
/// Tuning::depth_first_max_threads threads, with values below the walk's
/// sentinels. There most successors are the next id, so the walk streams
/// through memory in one pass where layering and the mex pass take three;
/// the caller also checks depth_first_bytes against the memory budget.
template <class Target>
bool walks_renumbered(const BasicCsr<Target>& graph, const SolveConfig& config);

/// The most bytes the walk holds for a graph of n nodes beside the graph
/// and its values: a path with room for every node, and with the depth
/// asked for, the heights.
std::uint64_t depth_first_bytes(node_t n, bool with_depth);

/// The most nodes the walk's path may hold on `graph`: all of them where it
/// takes the walk by its size or walks_when_deep (deep, it would be walked
/// after its rounds), else n /
/// Tuning::hub_walk_depth_share (a deep graph's walk enters node after node
/// on a miss, with nothing to overlap, and layering in a locality order is
/// faster).
template <class Target>
std::size_t depth_first_path_bound(const BasicCsr<Target>& graph, const SolveConfig& config);

/// The share of `samples` targets, evenly spaced in the edge array, that
/// equal another one of them: near samples / 2n where targets spread
/// evenly, far above where hubs draw many edges.
template <class Target>
double repeated_target_share(const BasicCsr<Target>& graph, std::size_t samples);

/// Fills `sg` (reset to n values); with `depth`, also sets *depth to the
/// number of Kahn layers (the nodes on a longest path). Throws CycleError,
/// naming a cycle in the graph's ids, if the graph is not a DAG. Gives up,
/// returning false with `sg` unfinished, where its path would hold more
/// than max_path nodes (a graph that turns out deep).
template <class Target>
bool depth_first_sg(const BasicCsr<Target>& graph, DepthFirstScratch& scratch, SgValues& sg,
                    std::size_t* depth = nullptr, std::size_t max_path = SIZE_MAX);

}  // namespace grundy
