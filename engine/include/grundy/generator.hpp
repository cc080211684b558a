// Deterministic synthetic DAGs for tests, benchmarks and the quick start.
//
// Every random choice is a pure function of (seed, what, index) through a
// counter-based mixer, never of a generator's running state: the same seed
// gives the same graph on any platform and for any thread count. Node ids are
// a seeded random permutation of topological ranks, so id order is not a
// topological order (solvers cannot lean on it by accident).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "grundy/csr_graph.hpp"

namespace grundy {

enum class Shape {
  uniform,     ///< M edges between uniformly random pairs, oriented by rank
  chain,       ///< a path through all N nodes (depth N), plus random forward edges
  tournament,  ///< every pair, oriented by rank: SG values 0..N-1, M = N(N-1)/2
};

struct GenSpec {
  Shape shape = Shape::uniform;
  std::uint64_t nodes = 1000;
  std::uint64_t edges = 4000;  ///< ignored by tournament
  std::uint64_t tokens = 10;
  std::uint64_t seed = 1;
};

/// Parses "uniform", "chain", "tournament". Throws std::invalid_argument.
Shape parse_shape(std::string_view name);
std::string_view shape_name(Shape shape);

/// The number of edges the spec produces (tournament and chain fix some).
std::uint64_t generated_edges(const GenSpec& spec);

/// Builds the graph. Throws std::invalid_argument for impossible specs
/// (edges without two nodes, tokens without nodes, more than kMaxNodes).
OwnedGame generate(const GenSpec& spec);

/// splitmix64 of (seed, stream, index): the one source of randomness.
std::uint64_t mix(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

}  // namespace grundy
