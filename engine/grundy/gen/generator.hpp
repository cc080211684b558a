// Deterministic synthetic DAGs for tests, benchmarks and the quick start.
//
// Every random choice is a pure function of (seed, what, index) through a
// counter-based mixer, never of a generator's running state: the same seed
// gives the same graph, byte for byte, on any platform and for any thread
// count. Graphs are built straight into CSR rows (one source's edges at a
// time), so a 10^9-edge graph needs no edge list in memory. Node ids are a
// seeded permutation of topological ranks, so id order is not topological
// and solvers cannot lean on it by accident.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

enum class Shape {
  uniform,     ///< edges between random pairs, each oriented from the lower rank
  layered,     ///< --layers bands; edges only from one band to the next (wide, shallow)
  chain,       ///< a path through all N nodes (depth N), plus short forward edges
  powerlaw,    ///< Pareto out-degrees: a few nodes with thousands of successors
  tournament,  ///< every pair, oriented by rank: SG values 0..N-1, M = N(N-1)/2
  kron,        ///< R-MAT (Graph500 a=.57 b=c=.19) edges, oriented by rank
  // Digraphs with cycles (solved with --loopy):
  digraph,       ///< edges between uniform random pairs, either way (self-loops included)
  kron_digraph,  ///< R-MAT edges as drawn, not oriented
  grid,          ///< sqrt(N) columns: 3/8 of the moves right, 3/8 down, 1/8 left, 1/8 up; off the grid, to the goal (the last cell, a sink)
  subtraction,   ///< heaps 0..N-1: take 1..k (k = M/N - 1), or from an odd heap put 2 back while it stays below N
};

/// Whether a shape makes cycles (so that only --loopy solves it).
bool has_cycles(Shape shape);

/// Changes whenever one GenSpec starts to give different bytes (2: the
/// 32-bit SIMD permutation and per-(rank, j) edge streams; 3: layered
/// files order each layer by out-degree; 4: layered files store their
/// degree runs). Caches of generated files (grundy bench) carry it in their
/// names.
inline constexpr int kGeneratorVersion = 4;

struct GenSpec {
  Shape shape = Shape::uniform;
  std::uint64_t nodes = 1000;
  std::uint64_t edges = 4000;  ///< tournament: ignored; chain: at least N-1; subtraction: sets k
  std::uint64_t tokens = 10;
  std::uint64_t seed = 1;
  std::uint64_t layers = 8;  ///< layered only
};

/// "uniform", "layered", ... Throws std::invalid_argument.
Shape parse_shape(std::string_view name);
std::string_view shape_name(Shape shape);
/// Every shape's name, comma-separated (for help texts).
std::string shape_names();
/// Every shape's name (for option checks).
std::vector<std::string> shape_list();

/// The edge count the spec produces (tournament and chain fix or raise it).
std::uint64_t generated_edges(const GenSpec& spec);

/// Throws std::invalid_argument, naming the problem, for impossible specs
/// (edges without two nodes, tokens without nodes, too many nodes, ...).
void check_spec(const GenSpec& spec);

/// Where a generator writes: offsets (n+1), targets (m), tokens (k) as sized
/// by the spec; memory the caller owns (vectors, or a mapped output file).
struct GameBuffers {
  edge_t* offsets;
  node_t* targets;
  node_t* tokens;
};

/// Fills `out`. `progress(edges_done)` is called now and then from any thread.
void generate_into(const GenSpec& spec, const GameBuffers& out, const ParallelConfig& pc,
                   const std::function<void(std::uint64_t)>& progress = {});

/// The out-degrees of ids [lo, hi) summed per `block` ids (the last block
/// may be short): what grundy-mpi's ranks balance their slices on.
std::vector<edge_t> block_degrees(const GenSpec& spec, std::uint64_t lo, std::uint64_t hi, std::uint64_t block,
                                  const ParallelConfig& pc);

/// The rows of ids [lo, hi) exactly as generate_into writes them: offsets
/// (hi - lo + 1 entries, from 0) and targets, and every token. A slice of a
/// graph no one machine holds: each rank makes its own.
void generate_rows(const GenSpec& spec, std::uint64_t lo, std::uint64_t hi, edge_t* offsets, Array<node_t>& targets,
                   std::vector<node_t>& tokens, const ParallelConfig& pc);

/// The generated game in memory.
OwnedGame generate(const GenSpec& spec, const ParallelConfig& pc = {});

/// splitmix64 of (seed, stream, index): the one source of randomness.
std::uint64_t mix(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

}  // namespace grundy
