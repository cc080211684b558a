#include "grundy/gen/generator.hpp"
#include "grundy/primitives/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "grundy/gen/permutation.hpp"

namespace grundy {
namespace {

// Streams keep the different random choices of one seed independent.
enum : std::uint64_t {
  kPermStream = 1,
  kEdgeStream = 2,
  kTokenStream = 3,
  kDegreeStream = 4,
  kKronStream = 5,
};

constexpr Shape kShapes[] = {Shape::uniform,    Shape::layered, Shape::chain,        Shape::powerlaw,
                             Shape::tournament, Shape::kron,    Shape::digraph,      Shape::kron_digraph,
                             Shape::grid,       Shape::subtraction};

using u128 = unsigned __int128;

std::uint64_t below(std::uint64_t r, std::uint64_t bound) {  // r uniform in [0, bound)
  return static_cast<std::uint64_t>((static_cast<u128>(r) * bound) >> 64);
}

// floor(m * part / whole) without overflow.
std::uint64_t share(std::uint64_t m, u128 part, u128 whole) {
  if (whole == 0) return 0;
  // part <= whole and m < 2^64; whole < 2^64 in every use, so this fits.
  return static_cast<std::uint64_t>(static_cast<u128>(m) * part / whole);
}

// subtraction: the k of "take 1..k", from the edges asked for (each heap
// has about k + 1 moves).
std::uint64_t subtraction_k(const GenSpec& s) {
  const std::uint64_t per_node = s.edges / std::max<std::uint64_t>(1, s.nodes);
  return per_node > 1 ? per_node - 1 : 1;
}

// subtraction: the moves of heaps 0..r-1: min(x, k) takes, and a put-back
// from each odd heap x while x + 2 < n (heap 0 has no move: the game ends).
std::uint64_t subtraction_start(std::uint64_t r, std::uint64_t n, std::uint64_t k) {
  const std::uint64_t takes = r <= k + 1 ? r * (r - (r > 0)) / 2 : k * (k + 1) / 2 + (r - 1 - k) * k;
  return takes + std::min(r, n > 2 ? n - 2 : 0) / 2;
}

// grid: the torus's width.
std::uint64_t grid_width(std::uint64_t n) {
  std::uint64_t w = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  while (w * w < n) ++w;
  return std::max<std::uint64_t>(1, w);
}

// grid: the cell of rank r one step in direction d (0-2 right, 3-5 down,
// 6 left, 7 up); a step off the grid reaches the goal, the last cell.
std::uint64_t grid_step(std::uint64_t r, std::uint64_t n, std::uint64_t w, std::uint64_t d) {
  const std::uint64_t col = r % w, goal = n - 1;
  if (d < 3) return col + 1 < w && r + 1 < n ? r + 1 : goal;
  if (d < 6) return r + w < n ? r + w : goal;
  if (d < 7) return col > 0 ? r - 1 : goal;
  return r >= w ? r - w : goal;
}

// The edges of the nodes of rank < r, for the shapes that spread edges by a
// closed form (kron and powerlaw build theirs from data).
struct RankModel {
  const GenSpec& s;
  std::uint64_t n, m;

  std::uint64_t start(std::uint64_t r) const {
    switch (s.shape) {
      case Shape::grid: return share(m, std::min(r, n - 1), n - 1);  // the goal has no move
      case Shape::subtraction: return subtraction_start(r, n, subtraction_k(s));
      case Shape::uniform: {
        // A uniform pair's lower rank is r with weight n-1-r: node r gets a
        // share of the M edges proportional to it.
        const u128 c = static_cast<u128>(r) * (n - 1) - static_cast<u128>(r) * (r - (r > 0)) / 2;
        return share(m, c, static_cast<u128>(n) * (n - 1) / 2);
      }
      case Shape::tournament:
        return static_cast<std::uint64_t>(static_cast<u128>(r) * (n - 1) - static_cast<u128>(r) * (r - (r > 0)) / 2);
      case Shape::chain: {
        // One spine edge per node but the last, plus an even share of the rest.
        const std::uint64_t spine = std::min(r, n - 1);
        return spine + share(m - (n - 1), spine, n - 1);
      }
      case Shape::layered: {
        const std::uint64_t senders = band_begin(s.layers - 1);  // all but the last band
        return share(m, std::min(r, senders), senders);
      }
      case Shape::powerlaw:
      case Shape::kron:
      case Shape::digraph:
      case Shape::kron_digraph: break;
    }
    return 0;
  }
  // Band l is ranks [band_begin(l), band_begin(l+1)).
  std::uint64_t band_begin(std::uint64_t l) const {
    return static_cast<std::uint64_t>(static_cast<u128>(l) * n / s.layers);
  }
  // The target rank of edge j of rank r. Its random stream index is (r, j)
  // packed (j < n < 2^32), not the edge's global number, which would cost
  // the rank's start (a 128-bit division) per row.
  std::uint64_t target(std::uint64_t r, std::uint64_t j) const {
    const std::uint64_t h = mix(s.seed, kEdgeStream, (r << 32) | j);
    switch (s.shape) {
      case Shape::tournament: return r + 1 + j;
      case Shape::chain: return j == 0 ? r + 1 : r + 1 + below(h, std::min<std::uint64_t>(n - 1 - r, 64));
      case Shape::layered: {
        std::uint64_t l = r * s.layers / n;  // candidate band, corrected below
        while (band_begin(l + 1) <= r) ++l;
        while (band_begin(l) > r) --l;
        const std::uint64_t b = band_begin(l + 1), e = band_begin(l + 2);
        return b + below(h, e - b);
      }
      case Shape::grid: return grid_step(r, n, grid_width(n), h & 7);
      case Shape::subtraction: {
        const std::uint64_t takes = std::min(r, subtraction_k(s));
        return j < takes ? r - 1 - j : r + 2;  // the put-back of an odd heap
      }
      case Shape::uniform:
      case Shape::powerlaw:
      case Shape::kron:
      case Shape::digraph:
      case Shape::kron_digraph: break;
    }
    return r + 1 + below(h, n - 1 - r);  // any later rank
  }
};

// Pareto weights, damped near the end where few later ranks remain; the
// prefix of their integer split is the powerlaw shape's edge start per rank.
Array<edge_t> powerlaw_starts(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  constexpr double kAlpha = 1.6;  // tail exponent: max degree grows like n^(1/alpha)
  Array<double> prefix(n + 1, 0.0);
  for (std::uint64_t r = 0; r < n; ++r) {
    const double u = (static_cast<double>(mix(seed, kDegreeStream, r) >> 11) + 1.0) * 0x1p-53;
    const double room = r + 1 < n ? static_cast<double>(n - 1 - r) / static_cast<double>(n) : 0.0;
    prefix[r + 1] = prefix[r] + std::pow(u, -1.0 / kAlpha) * room;
  }
  Array<edge_t> start(n + 1, 0);
  const double total = prefix[n];
  for (std::uint64_t r = 0; r <= n; ++r)
    start[r] = total > 0
                   ? std::min<edge_t>(m, static_cast<edge_t>(std::floor(static_cast<double>(m) * (prefix[r] / total))))
                   : 0;
  start[n] = m;
  for (std::uint64_t r = n; r-- > 0;) start[r] = std::min(start[r], start[r + 1]);
  return start;
}

// Serial prefix sum in place: deterministic, and one pass over n entries is
// small next to filling m edges.
void prefix_sum(edge_t* a, std::uint64_t n) {
  for (std::uint64_t i = 1; i <= n; ++i) a[i] += a[i - 1];
}

// R-MAT: each of `scale` levels picks a quadrant with probabilities
// .57/.19/.19/.05, 16 bits of one mix() per level. Endpoints beyond n and
// self-loops are drawn again (attempt counter in the stream index).
std::pair<std::uint64_t, std::uint64_t> kron_edge(std::uint64_t seed, std::uint64_t e, std::uint64_t n, int scale) {
  for (std::uint64_t attempt = 0;; ++attempt) {
    std::uint64_t x = 0, y = 0, bits = 0;
    for (int level = 0; level < scale; ++level) {
      if (level % 4 == 0)
        bits = mix(seed, kKronStream + (attempt << 8), e * 16 + static_cast<std::uint64_t>(level / 4));
      const std::uint64_t p = bits & 0xFFFF;  // quadrants a, b, c, d of 2^16
      bits >>= 16;
      x = 2 * x + (p >= 49807);                               // c or d: lower half
      y = 2 * y + ((p >= 37356 && p < 49807) || p >= 62259);  // b or d: right half
    }
    if (x < n && y < n && x != y) return {x, y};
  }
}

}  // namespace

std::uint64_t mix(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return splitmix_finalize(seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull + index);
}

Shape parse_shape(std::string_view name) {
  for (Shape s : kShapes)
    if (shape_name(s) == name) return s;
  throw std::invalid_argument("unknown shape \"" + std::string(name) + "\" (known: " + shape_names() + ")");
}

std::string_view shape_name(Shape shape) {
  switch (shape) {
    case Shape::uniform: return "uniform";
    case Shape::layered: return "layered";
    case Shape::chain: return "chain";
    case Shape::powerlaw: return "powerlaw";
    case Shape::tournament: return "tournament";
    case Shape::kron: return "kron";
    case Shape::digraph: return "digraph";
    case Shape::kron_digraph: return "kron-digraph";
    case Shape::grid: return "grid";
    case Shape::subtraction: return "subtraction";
  }
  return "?";
}

std::vector<std::string> shape_list() {
  std::vector<std::string> names;
  for (Shape sh : kShapes) names.emplace_back(shape_name(sh));
  return names;
}

bool has_cycles(Shape shape) {
  return shape == Shape::digraph || shape == Shape::kron_digraph || shape == Shape::grid ||
         shape == Shape::subtraction;
}

std::string shape_names() {
  std::string s;
  for (Shape sh : kShapes) s += (s.empty() ? "" : ", ") + std::string(shape_name(sh));
  return s;
}

std::uint64_t generated_edges(const GenSpec& s) {
  switch (s.shape) {
    case Shape::tournament:
      return static_cast<std::uint64_t>(static_cast<u128>(s.nodes) * (s.nodes - (s.nodes > 0)) / 2);
    case Shape::chain: return std::max(s.edges, s.nodes - (s.nodes > 0));
    case Shape::layered: return s.layers >= 2 && s.nodes >= s.layers ? s.edges : 0;
    case Shape::subtraction: return s.nodes < 2 ? 0 : subtraction_start(s.nodes, s.nodes, subtraction_k(s));
    case Shape::uniform:
    case Shape::powerlaw:
    case Shape::kron:
    case Shape::digraph:
    case Shape::kron_digraph:
    case Shape::grid: return s.edges;
  }
  return 0;
}

void check_spec(const GenSpec& s) {
  // Past these no machine holds the graph; below them every size below fits u64.
  constexpr std::uint64_t kMaxEdges = std::uint64_t{1} << 48, kMaxTokens = std::uint64_t{1} << 48;
  if (s.edges > kMaxEdges) throw std::invalid_argument("--edges " + std::to_string(s.edges) + " is more than 2^48");
  if (s.tokens > kMaxTokens) throw std::invalid_argument("--tokens " + std::to_string(s.tokens) + " is more than 2^48");
  if (s.nodes > kMaxNodes)
    throw std::invalid_argument("--nodes " + std::to_string(s.nodes) + " is more than " + std::to_string(kMaxNodes));
  if (s.nodes == 0 && s.tokens > 0) throw std::invalid_argument("tokens need at least one node");
  if (s.shape == Shape::tournament && s.nodes > 1u << 20)
    throw std::invalid_argument("a tournament of more than 2^20 nodes has over 5*10^11 edges");
  if (s.shape == Shape::layered && (s.layers < 2 || s.layers > s.nodes))
    throw std::invalid_argument("--layers must be between 2 and --nodes");
  if (generated_edges(s) > 0 && s.nodes < 2) throw std::invalid_argument("edges need at least two nodes");
}

namespace {

using Report = std::function<void(std::uint64_t)>;

// Shapes whose edges are drawn as pairs (DrawnEdges), not made per source.
bool drawn(Shape shape) { return shape == Shape::kron || shape == Shape::kron_digraph || shape == Shape::digraph; }

// kron, kron-digraph and digraph: edges come from a distribution over
// pairs, not per source: count the degrees of the sources in [lo, hi),
// scatter, then sort each row so that the bytes do not depend on which
// thread placed which edge. (A slice still draws all M edges and keeps its own.)
struct DrawnEdges {
  const GenSpec& s;
  const Permutation& id_of;
  std::uint64_t n = s.nodes, m = generated_edges(s);
  int scale = [&] {
    int bits = 1;
    while ((std::uint64_t{1} << bits) < n) ++bits;
    return bits;
  }();

  // Edge e as (source, target) ids: kron's oriented by rank, kron-digraph's
  // as drawn, digraph's a uniform pair (a self-loop now and then).
  std::pair<std::uint64_t, std::uint64_t> oriented(std::uint64_t e) const {
    if (s.shape == Shape::digraph)
      return {below(mix(s.seed, kEdgeStream, 2 * e), n), below(mix(s.seed, kEdgeStream, 2 * e + 1), n)};
    auto [x, y] = kron_edge(s.seed, e, n, scale);
    if (s.shape == Shape::kron_digraph) return {x, y};
    return id_of.inverse(x) < id_of.inverse(y) ? std::pair{x, y} : std::pair{y, x};
  }
  // counts[(x - lo) / block] += 1 for each edge whose source x is in [lo, hi).
  void count(std::uint64_t lo, std::uint64_t hi, std::uint64_t block, edge_t* counts, const ParallelConfig& pc) const {
    for_range(pc, 0, m, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const std::uint64_t x = oriented(i).first;
        if (x >= lo && x < hi)
          std::atomic_ref<edge_t>(counts[(x - lo) / block]).fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  void offsets(std::uint64_t lo, std::uint64_t hi, edge_t* offsets, const ParallelConfig& pc) const {
    std::fill_n(offsets, hi - lo + 1, 0);
    count(lo, hi, 1, offsets + 1, pc);
    prefix_sum(offsets, hi - lo);
  }
  void fill(std::uint64_t lo, std::uint64_t hi, const edge_t* offsets, node_t* targets, const ParallelConfig& pc,
            const Report& report) const {
    Array<edge_t> cursor(offsets, offsets + (hi - lo));
    for_range(pc, 0, m, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const auto [x, y] = oriented(i);
        if (x >= lo && x < hi)
          targets[std::atomic_ref<edge_t>(cursor[x - lo]).fetch_add(1, std::memory_order_relaxed)] =
              static_cast<node_t>(y);
      }
      report(e - b);
    });
    for_range(pc, 0, hi - lo, [&](std::size_t b, std::size_t e) {
      for (std::size_t u = b; u < e; ++u) std::sort(targets + offsets[u], targets + offsets[u + 1]);
    });
  }
};

// Every other shape: each rank's degree and targets come from the shape's
// model, so each id's row is made independently (parallel, deterministic).
struct RankedRows {
  const GenSpec& s;
  const Permutation& id_of;
  RankModel model;
  Array<edge_t> pl;  // powerlaw's edge starts by rank
  PerThread<std::vector<node_t>> rank_buffers;

  RankedRows(const GenSpec& spec, const Permutation& ids)
      : s(spec), id_of(ids), model{spec, spec.nodes, generated_edges(spec)} {
    if (s.shape == Shape::powerlaw) pl = powerlaw_starts(s.nodes, generated_edges(s), s.seed);
  }
  std::uint64_t start(std::uint64_t r) const { return pl.empty() ? model.start(r) : pl[r]; }
  // The ranks of ids [b, e), as SIMD batches (Permutation::apply_inverse).
  const node_t* ranks_of(std::size_t b, std::size_t e) {
    std::vector<node_t>& ranks = rank_buffers.local();
    ranks.resize(e - b);
    for (std::size_t u = b; u < e; ++u) ranks[u - b] = static_cast<node_t>(u);
    id_of.apply_inverse(ranks.data(), ranks.size());
    return ranks.data();
  }
  // offsets[u - lo + 1] = the out-degree of id u, for u in [b, e).
  void degrees(std::size_t b, std::size_t e, std::uint64_t lo, edge_t* offsets) {
    const node_t* rank = ranks_of(b, e);
    for (std::size_t u = b; u < e; ++u)
      offsets[u - lo + 1] = start(rank[u - b] + std::uint64_t{1}) - start(rank[u - b]);
  }
  void offsets(std::uint64_t lo, std::uint64_t hi, edge_t* offsets, const ParallelConfig& pc) {
    offsets[0] = 0;
    for_range(pc, lo, hi, [&](std::size_t b, std::size_t e) { degrees(b, e, lo, offsets); });
    prefix_sum(offsets, hi - lo);
  }
  // Each id's row, independently: parallel and deterministic. The rows
  // first get target ranks, then a block's worth of them at once is mapped
  // to ids (Permutation::apply runs as SIMD over a batch).
  void fill(std::uint64_t lo, std::uint64_t hi, const edge_t* offsets, node_t* targets, const ParallelConfig& pc,
            const Report& report) {
    for_range(pc, lo, hi, [&](std::size_t b, std::size_t e) {
      const node_t* rank = ranks_of(b, e);
      for (std::size_t u = b; u < e; ++u) {
        const std::uint64_t r = rank[u - b];
        node_t* row = targets + offsets[u - lo];
        const std::uint64_t d = offsets[u - lo + 1] - offsets[u - lo];
        for (std::uint64_t j = 0; j < d; ++j) row[j] = static_cast<node_t>(model.target(r, j));
      }
      id_of.apply(targets + offsets[b - lo], offsets[e - lo] - offsets[b - lo]);
      report(offsets[e - lo] - offsets[b - lo]);
    });
  }
};

void place_tokens(const GenSpec& s, const GameBuffers& out) {
  for (std::uint64_t t = 0; t < s.tokens; ++t)
    out.tokens[t] = static_cast<node_t>(below(mix(s.seed, kTokenStream, t), s.nodes));
}

}  // namespace

void generate_into(const GenSpec& s, const GameBuffers& out, const ParallelConfig& pc,
                   const std::function<void(std::uint64_t)>& progress) {
  check_spec(s);
  const Permutation id_of(s.nodes, s.seed ^ kPermStream);  // rank -> id
  std::atomic<std::uint64_t> done{0};
  const Report report = [&](std::uint64_t edges) {
    if (progress) progress(done.fetch_add(edges, std::memory_order_relaxed) + edges);
  };
  if (drawn(s.shape)) {
    const DrawnEdges kron{s, id_of};
    kron.offsets(0, s.nodes, out.offsets, pc);
    kron.fill(0, s.nodes, out.offsets, out.targets, pc, report);
  } else {
    RankedRows ranked(s, id_of);
    ranked.offsets(0, s.nodes, out.offsets, pc);
    ranked.fill(0, s.nodes, out.offsets, out.targets, pc, report);
  }
  place_tokens(s, out);
}

std::vector<edge_t> block_degrees(const GenSpec& s, std::uint64_t lo, std::uint64_t hi, std::uint64_t block,
                                  const ParallelConfig& pc) {
  check_spec(s);
  const Permutation id_of(s.nodes, s.seed ^ kPermStream);
  const std::uint64_t blocks = (hi - lo + block - 1) / block;
  std::vector<edge_t> sums(blocks, 0);
  if (drawn(s.shape)) {
    DrawnEdges{s, id_of}.count(lo, hi, block, sums.data(), pc);
    return sums;
  }
  RankedRows ranked(s, id_of);
  for_range(pc, 0, blocks, [&](std::size_t b, std::size_t e) {
    std::vector<edge_t> degree(block + 1);
    for (std::size_t k = b; k < e; ++k) {
      const std::uint64_t from = lo + k * block, to = std::min(hi, from + block);
      ranked.degrees(from, to, from, degree.data());
      for (std::uint64_t u = from; u < to; ++u) sums[k] += degree[u - from + 1];
    }
  });
  return sums;
}

void generate_rows(const GenSpec& s, std::uint64_t lo, std::uint64_t hi, edge_t* offsets, Array<node_t>& targets,
                   std::vector<node_t>& tokens, const ParallelConfig& pc) {
  check_spec(s);
  const Permutation id_of(s.nodes, s.seed ^ kPermStream);
  const Report none = [](std::uint64_t) {};
  tokens.resize(s.tokens);
  place_tokens(s, {nullptr, nullptr, tokens.data()});
  // The offsets size the targets; then the rows.
  if (drawn(s.shape)) {
    const DrawnEdges kron{s, id_of};
    kron.offsets(lo, hi, offsets, pc);
    targets.resize(offsets[hi - lo]);
    kron.fill(lo, hi, offsets, targets.data(), pc, none);
    return;
  }
  RankedRows ranked(s, id_of);
  ranked.offsets(lo, hi, offsets, pc);
  targets.resize(offsets[hi - lo]);
  ranked.fill(lo, hi, offsets, targets.data(), pc, none);
}

OwnedGame generate(const GenSpec& s, const ParallelConfig& pc) {
  check_spec(s);
  OwnedGame game;
  game.n = static_cast<node_t>(s.nodes);
  game.offsets.assign(s.nodes + 1, 0);
  game.targets.resize(generated_edges(s));
  game.tokens.resize(s.tokens);
  generate_into(s, {game.offsets.data(), game.targets.data(), game.tokens.data()}, pc);
  return game;
}

}  // namespace grundy
