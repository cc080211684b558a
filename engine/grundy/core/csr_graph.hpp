// The graph and game types every part of grundy shares.
//
// Node ids are 0-based inside the engine (the classic text format's 1-based
// ids are shifted by the parser and shifted back on output). A graph is
// compressed sparse rows: the successors of u are targets[offsets[u] ..
// offsets[u+1]). Views are plain pointers so that the same code runs over
// vectors the parser filled and over a memory-mapped binary file.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "grundy/core/huge_array.hpp"

namespace grundy {

using node_t = std::uint32_t;  ///< a node id, 0-based
using edge_t = std::uint64_t;  ///< an edge index or count

/// Largest node count: ids must fit node_t with one value left as a sentinel.
inline constexpr std::uint64_t kMaxNodes = std::numeric_limits<node_t>::max() - 1;

/// A read-only CSR graph. offsets has n+1 entries, offsets[n] == m. Its
/// targets are node ids of type Target: the engine's own 4-byte ids
/// (CsrView), or 8-byte ones read in place from a caller's arrays
/// (WideCsrView: SciPy's int64 indices), each below n all the same.
template <class Target>
struct BasicCsr {
  using target_type = Target;

  node_t n = 0;
  edge_t m = 0;
  const edge_t* offsets = nullptr;
  const Target* targets = nullptr;

  edge_t degree(node_t u) const { return offsets[u + 1] - offsets[u]; }
  std::span<const Target> successors(node_t u) const {
    return {targets + offsets[u], static_cast<std::size_t>(degree(u))};
  }
  /// The edges leaving `nodes` (a layer, a round): the sum of their degrees.
  edge_t edges_of(std::span<const node_t> nodes) const {
    edge_t sum = 0;
    for (const node_t u : nodes) sum += degree(u);
    return sum;
  }
};

using CsrView = BasicCsr<node_t>;
using WideCsrView = BasicCsr<std::uint64_t>;

/// The bytes of a graph's own arrays (offsets and targets).
template <class Target>
std::uint64_t graph_bytes(const BasicCsr<Target>& g) {
  return (std::uint64_t{g.n} + 1) * sizeof(edge_t) + g.m * sizeof(Target);
}

/// One game: a DAG and the positions of the tokens on it (0-based ids).
template <class Target>
struct BasicGame {
  BasicCsr<Target> graph;
  std::span<const node_t> tokens;
};

using GameView = BasicGame<node_t>;
using WideGameView = BasicGame<std::uint64_t>;

/// What a layered .gcsr stores besides its renumbered graph (FORMAT.md), for
/// the mex pass to skip layering: layer l is ids [begin[l], begin[l+1]), and
/// run r of degree_runs, ids [degree_runs[r], degree_runs[r+1]), lies in one
/// layer and holds nodes of one out-degree. Both empty for other graphs;
/// degree_runs also for layered files written before it existed.
struct StoredLayers {
  std::span<const node_t> begin;
  std::span<const node_t> degree_runs;

  bool empty() const { return begin.empty(); }
};

/// A game whose arrays the process owns (parsed text, generated graphs).
struct OwnedGame {
  node_t n = 0;
  Array<edge_t> offsets{0};  ///< n+1 entries
  UnzeroedArray<node_t> targets;  ///< m entries, each written by the graph's builder
  Array<node_t> tokens;

  CsrView graph() const { return {n, static_cast<edge_t>(targets.size()), offsets.data(), targets.data()}; }
  GameView view() const { return {graph(), tokens}; }
};

/// Starts loading row u of a graph past the cache into L2 (locality 2), its
/// offsets being in hand (prefetched earlier): both ends of it, since a row
/// of ten or so ids straddles two cache lines about half the time, and a
/// row far from the last one read gives the hardware's prefetcher nothing
/// to follow (docs/TUNING.md#prefetch-row).
template <class Target>
[[gnu::always_inline]] inline void prefetch_row(const edge_t* offsets, const Target* targets, node_t u) {
  const edge_t first = offsets[u], end = offsets[u + 1];
  __builtin_prefetch(targets + first, 0, 2);
  if (end > first) __builtin_prefetch(targets + end - 1, 0, 2);
}

/// Copies a row of n successors to `to`, inline: the staged passes copy
/// rows of ten or so ids, and std::copy_n there became a libc memmove call
/// per row (6% of a 2-thread wide-l solve in perf). Whole 8-id blocks, then
/// the rest one by one, written out so that the compiler does not turn it
/// back into a call. Wide ids are narrowed on the way (they are below n).
template <class Target>
[[gnu::always_inline]] inline void copy_row(const Target* from, std::size_t n, node_t* to) {
  std::size_t j = 0;
  if constexpr (sizeof(Target) == sizeof(node_t)) {
    for (; j + 8 <= n; j += 8) __builtin_memcpy(to + j, from + j, 8 * sizeof(node_t));
  } else {
    for (; j < n; ++j) to[j] = static_cast<node_t>(from[j]);
  }
  switch (n - j) {
    case 7: to[j + 6] = static_cast<node_t>(from[j + 6]); [[fallthrough]];
    case 6: to[j + 5] = static_cast<node_t>(from[j + 5]); [[fallthrough]];
    case 5: to[j + 4] = static_cast<node_t>(from[j + 4]); [[fallthrough]];
    case 4: to[j + 3] = static_cast<node_t>(from[j + 3]); [[fallthrough]];
    case 3: to[j + 2] = static_cast<node_t>(from[j + 2]); [[fallthrough]];
    case 2: to[j + 1] = static_cast<node_t>(from[j + 1]); [[fallthrough]];
    case 1: to[j] = static_cast<node_t>(from[j]); [[fallthrough]];
    default: break;
  }
}

/// The largest out-degree.
template <class Target>
edge_t max_degree(const BasicCsr<Target>& g) {
  edge_t d = 0;
  for (node_t u = 0; u < g.n; ++u) d = std::max(d, g.degree(u));
  return d;
}

/// Builds CSR arrays from an edge list given as interleaved (source, target)
/// pairs, keeping the input order of each node's successors. Ids must be < n.
/// Returns the first edge that is a self-loop, if any: the arrays are built
/// either way, and rejecting it is the caller's to do (the check rides on
/// the counting pass, which reads every pair anyway).
std::optional<std::size_t> build_csr(node_t n, std::span<const node_t> pairs, OwnedGame& out);

}  // namespace grundy
