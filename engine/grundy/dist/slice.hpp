// One rank's part of a graph: a contiguous range of node ids and their rows,
// from a .gcsr file (only that part mapped), from the generator (only that
// part made), or dealt by rank 0 from an input it loaded whole.
//
// The ranges split nodes + edges evenly (1D partition): a rank's work in
// every pass is its nodes and its edges.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/huge_array.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy::dist {

/// Who owns which node: rank r holds ids [begin[r], begin[r+1]).
struct Partition {
  std::vector<node_t> begin;  ///< ranks + 1 entries

  int owner(node_t v) const;
  int ranks() const { return static_cast<int>(begin.size()) - 1; }
};

/// Cuts 0 = c_0 <= ... <= c_parts = count with work(c_r) as close to
/// r * work(count) / parts as `work` (monotone, of a cut) allows.
std::vector<std::uint64_t> balanced_cuts(std::uint64_t count, int parts,
                                         const std::function<std::uint64_t(std::uint64_t)>& work);

struct GraphSlice {
  std::string name;            ///< the input, for messages
  std::uint64_t n = 0, m = 0;  ///< the whole graph's
  Partition part;
  node_t lo = 0, hi = 0;        ///< this rank's ids
  std::uint64_t edge_base = 0;  ///< the global index of its first edge
  Array<edge_t> offsets;        ///< hi - lo + 1 entries, from 0
  node_t* targets = nullptr;    ///< its edges' targets (global ids), writable
  edge_t edges = 0;
  std::shared_ptr<void> keep;  ///< what holds the targets: an array or a private mapping
  std::vector<node_t> tokens;  ///< every token (global ids)
  Array<node_t> original_ids;  ///< a layered .gcsr's: the user's id of each node of the slice; else empty

  node_t nodes() const { return hi - lo; }
  /// Frees the rows (offsets and targets) once no pass needs them.
  void release_rows() {
    offsets = {};
    keep.reset();
    targets = nullptr;
  }
  /// The user's 0-based id of global id v of this slice.
  node_t user_id(node_t v) const { return original_ids.empty() ? v : original_ids[v - lo]; }
};

/// This rank's slice of a .gcsr file: the header read by every rank, the
/// cuts found by bisection on the offsets (a few reads each), then only the
/// slice's offsets and targets mapped and checked (read_gcsr's errors).
GraphSlice map_gcsr_slice(const std::string& path, const ParallelConfig& pc);

/// This rank's slice of a generated graph: the same bytes `grundy gen`
/// writes for those ids.
GraphSlice generate_slice(const GenSpec& spec, const std::string& name, const ParallelConfig& pc);

/// An input one rank must read (text, an edge list, a pipe): rank 0 loads
/// it whole and deals each rank its slice.
GraphSlice deal_loaded_game(const std::string& input, const ParallelConfig& pc);

}  // namespace grundy::dist
