// The predecessor lists of a graph: the transposed CSR, built once in
// parallel, for the engines that work backwards from the sinks (games with
// cycles peel and label along reversed edges).
#pragma once

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/huge_array.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// The transpose: the predecessors of v are sources[offsets[v] .. offsets[v+1]),
/// one entry per edge (a repeated edge is repeated), in no fixed order.
struct Transpose {
  Array<edge_t> offsets;
  Array<node_t> sources;

  std::span<const node_t> predecessors(node_t v) const {
    return {sources.data() + offsets[v], static_cast<std::size_t>(offsets[v + 1] - offsets[v])};
  }
  /// Its bytes: what a caller adds to the memory budget for it.
  static std::uint64_t bytes(std::uint64_t n, std::uint64_t m) { return (n + 1) * sizeof(edge_t) + m * sizeof(node_t); }
};

template <class Target>
Transpose transpose(const BasicCsr<Target>& graph, const ParallelConfig& pc);

}  // namespace grundy
