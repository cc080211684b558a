#include "grundy/generator.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

namespace grundy {
namespace {

// Streams keep the different random choices of one seed independent.
enum : std::uint64_t { kPermStream = 1, kEdgeStream = 2, kTokenStream = 3 };

std::uint64_t below(std::uint64_t r, std::uint64_t bound) {  // r uniform in [0, bound)
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(r) * bound) >> 64);
}

// rank -> node id: a Fisher-Yates shuffle driven by mix().
Array<node_t> rank_to_id(std::uint64_t n, std::uint64_t seed) {
  Array<node_t> id(n);
  for (std::uint64_t i = 0; i < n; ++i) id[i] = static_cast<node_t>(i);
  for (std::uint64_t i = n; i > 1; --i)
    std::swap(id[i - 1], id[below(mix(seed, kPermStream, i), i)]);
  return id;
}

}  // namespace

std::uint64_t mix(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull + index;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Shape parse_shape(std::string_view name) {
  for (Shape s : {Shape::uniform, Shape::chain, Shape::tournament})
    if (shape_name(s) == name) return s;
  throw std::invalid_argument("unknown shape \"" + std::string(name) + "\"");
}

std::string_view shape_name(Shape shape) {
  switch (shape) {
    case Shape::uniform: return "uniform";
    case Shape::chain: return "chain";
    case Shape::tournament: return "tournament";
  }
  return "?";
}

std::uint64_t generated_edges(const GenSpec& s) {
  switch (s.shape) {
    case Shape::tournament: return s.nodes * (s.nodes - (s.nodes > 0)) / 2;
    case Shape::chain: return std::max(s.edges, s.nodes - (s.nodes > 0));
    case Shape::uniform: return s.edges;
  }
  return 0;
}

OwnedGame generate(const GenSpec& s) {
  if (s.nodes > kMaxNodes) throw std::invalid_argument("too many nodes");
  if (s.nodes == 0 && s.tokens > 0) throw std::invalid_argument("tokens need at least one node");
  const std::uint64_t n = s.nodes, m = generated_edges(s);
  if (m > 0 && n < 2) throw std::invalid_argument("edges need at least two nodes");
  const auto id = rank_to_id(n, s.seed);

  Array<node_t> pairs(2 * m);
  auto put = [&](std::uint64_t e, std::uint64_t from_rank, std::uint64_t to_rank) {
    pairs[2 * e] = id[from_rank];
    pairs[2 * e + 1] = id[to_rank];
  };
  std::uint64_t e = 0;
  if (s.shape == Shape::tournament) {
    for (std::uint64_t a = 0; a < n; ++a)
      for (std::uint64_t b = a + 1; b < n; ++b) put(e++, a, b);
  } else if (s.shape == Shape::chain) {
    for (; e + 1 < n; ++e) put(e, e, e + 1);
  }
  for (; e < m; ++e) {  // random forward edges between distinct ranks
    const std::uint64_t a = below(mix(s.seed, kEdgeStream, 2 * e), n);
    std::uint64_t b = below(mix(s.seed, kEdgeStream, 2 * e + 1), n - 1);
    b += b >= a;  // distinct from a, still uniform
    put(e, std::min(a, b), std::max(a, b));
  }
  OwnedGame game;
  build_csr(static_cast<node_t>(n), pairs, game);
  game.tokens.resize(s.tokens);
  for (std::uint64_t t = 0; t < s.tokens; ++t)
    game.tokens[t] = static_cast<node_t>(below(mix(s.seed, kTokenStream, t), n));
  return game;
}

}  // namespace grundy
