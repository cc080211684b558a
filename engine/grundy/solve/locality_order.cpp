#include "grundy/solve/locality_order.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <span>
#include <utility>
#include <string>
#include <stdexcept>
#include <vector>

#include "grundy/core/memory_budget.hpp"
#include "grundy/core/huge_array.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/solve/renumber.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {
namespace {

// A hashed 1 in 2^ruler_spacing_log2 of the ids: rulers take no memory.
bool is_ruler(node_t u) { return (std::uint64_t{u} * 0x9E3779B97F4A7C15ull) >> (64 - Tuning::ruler_spacing_log2) == 0; }

// A node's byte is set once, by the first walk to reach it; walks race for
// it only when threads run them (Shared).
template <bool Shared>
bool try_claim(std::uint8_t* claims, node_t v) {
  if constexpr (Shared) {
    std::atomic_ref<std::uint8_t> claim(claims[v]);
    return claim.load(std::memory_order_relaxed) == 0 && claim.exchange(1, std::memory_order_relaxed) == 0;
  } else {
    if (claims[v] != 0) return false;
    claims[v] = 1;
    return true;
  }
}

// Where the walks' batches go, in the renumbered arrays themselves: a batch
// takes the next new ids and the next edges under a lock, then writes its
// nodes (new -> old), its rows' ends and its rows (still in old ids) outside
// it. A walk has read each row already, so no row is
// looked up at random again (docs/TUNING.md#deep-graphs).
class Placement {
 public:
  explicit Placement(LocalityRenumbering& r) : r_(r) { r.offsets[0] = 0; }

  // nodes[j]'s row is rows[ends[j-1], ends[j]).
  template <class Id>
  void place(std::span<const node_t> nodes, std::span<const std::size_t> ends, const Id* rows) {
    if (nodes.empty()) return;
    std::size_t at;
    edge_t first;
    {
      const std::lock_guard<std::mutex> hold(lock_);
      at = placed_nodes_;
      first = placed_edges_;
      placed_nodes_ += nodes.size();
      placed_edges_ += ends.back();
    }
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      r_.order[at + j] = nodes[j];
      r_.offsets[at + j + 1] = first + ends[j];
    }
    std::transform(rows, rows + ends.back(), r_.targets.get() + first, [](Id v) { return static_cast<node_t>(v); });
  }

  std::size_t placed_nodes() const { return placed_nodes_; }
  edge_t placed_edges() const { return placed_edges_; }

 private:
  LocalityRenumbering& r_;
  std::mutex lock_;
  std::size_t placed_nodes_ = 0;
  edge_t placed_edges_ = 0;
};

// Walks in lockstep on one thread. A step takes each walk's next node
// through three loops: its row's bounds (its offsets were asked for when it
// was claimed), then its successors' claims and offsets asked for, then the
// claims taken and the row kept. Each loop's misses are independent, so
// they overlap.
template <bool Shared, class Csr>
class Walks {
 public:
  Walks(const Csr& g, std::uint8_t* claims) : g_(g), claims_(claims), walks_(Tuning::walks_in_flight) {}

  // Walks breadth-first from each seed that next_seed(node&) gives (a node
  // it claimed) until every node it reaches is a ruler or claimed, placing
  // each walk's nodes with their rows in the order claimed, a few thousand
  // at a time.
  template <class NextSeed>
  void run(const NextSeed& next_seed, Placement& placement) {
    std::size_t active = 0;
    while (active < walks_.size() && start(walks_[active], next_seed)) ++active;
    const edge_t* const off = g_.offsets;
    const auto* const targets = g_.targets;
    while (active > 0) {
      for (std::size_t w = 0; w < active; ++w) {
        Walk& k = walks_[w];
        const node_t u = k.nodes[k.head];
        k.lo = off[u];
        k.hi = off[u + 1];
        if (k.hi > k.lo) {
          __builtin_prefetch(targets + k.lo);
          __builtin_prefetch(targets + k.hi - 1);
        }
      }
      for (std::size_t w = 0; w < active; ++w) {
        const Walk& k = walks_[w];
        for (edge_t e = k.lo; e < k.hi; ++e) {
          const auto v = static_cast<node_t>(targets[e]);
          __builtin_prefetch(claims_ + v);
          __builtin_prefetch(off + v);
        }
      }
      for (std::size_t w = 0; w < active;) {
        Walk& k = walks_[w];
        const auto degree = static_cast<std::size_t>(k.hi - k.lo);
        const bool copied = degree <= Tuning::walk_row_copy;
        if (!copied) hand_over(k, placement);  // the nodes before it first: batches keep the claim order
        for (edge_t e = k.lo; e < k.hi; ++e) {
          const auto v = static_cast<node_t>(targets[e]);
          if (copied) k.rows.push_back(v);
          if (!is_ruler(v) && try_claim<Shared>(claims_, v)) k.nodes.push_back(v);
        }
        if (copied) {
          k.ends.push_back(k.rows.size());
          ++k.head;
        } else {
          // A long row goes from the graph into place, its node a batch alone.
          const std::size_t end[] = {degree};
          placement.place({k.nodes.data(), 1}, end, targets + k.lo);
          k.nodes.erase(k.nodes.begin());
        }
        if (k.head < k.nodes.size()) {
          // A long walk hands over what it has expanded: its buffers stay small.
          if (k.head == Tuning::walk_flush) hand_over(k, placement);
          ++w;
          continue;
        }
        placement.place(k.nodes, k.ends, k.rows.data());
        if (start(k, next_seed)) {
          ++w;
        } else {
          // The last active walk, not yet through this loop, takes slot w.
          std::swap(walks_[w], walks_[--active]);
        }
      }
    }
  }

 private:
  struct Walk {
    std::vector<node_t> nodes;  // claimed, in order: [0, head) expanded, [head, ..) waiting
    std::size_t head = 0;
    edge_t lo = 0, hi = 0;          // the row of nodes[head], this step
    std::vector<node_t> rows;       // the rows of nodes[0, head), one after another, in old ids
    std::vector<std::size_t> ends;  // where each of those rows ends in `rows`
  };

  // The nodes a walk has expanded, with their rows, into place.
  static void hand_over(Walk& k, Placement& placement) {
    if (k.head == 0) return;
    placement.place({k.nodes.data(), k.head}, k.ends, k.rows.data());
    k.nodes.erase(k.nodes.begin(), k.nodes.begin() + static_cast<std::ptrdiff_t>(k.head));
    k.head = 0;
    k.rows.clear();
    k.ends.clear();
  }

  template <class NextSeed>
  bool start(Walk& k, const NextSeed& next_seed) {
    node_t seed;
    if (!next_seed(seed)) return false;
    k.nodes.clear();
    k.nodes.push_back(seed);
    k.head = 0;
    k.rows.clear();
    k.ends.clear();
    __builtin_prefetch(g_.offsets + seed);
    return true;
  }

  const Csr& g_;
  std::uint8_t* const claims_;
  std::vector<Walk> walks_;
};

// Both passes over id blocks of Tuning::walk_block nodes, a task each: first
// the walks from the rulers, then from each node still unclaimed.
template <bool Shared, class Csr>
void walk_all(const Csr& g, const SolveConfig& config, std::uint8_t* claims, Placement& placement) {
  const std::size_t block = std::max<std::size_t>(1, config.tuning.walk_block);
  PerThread<Walks<Shared, Csr>> walks([&] { return Walks<Shared, Csr>(g, claims); });
  const std::size_t blocks = (std::size_t{g.n} + block - 1) / block;
  for (const bool rulers : {true, false}) {
    for_tasks(config.loops, blocks, [&](std::size_t b) {
      node_t next = static_cast<node_t>(b * block);
      const auto end = static_cast<node_t>(std::min<std::size_t>(g.n, (b + 1) * block));
      const auto next_seed = [&](node_t& seed) {
        for (; next < end; ++next) {
          const node_t u = next;
          // A ruler's byte is written by its own walk alone: no other walk claims a ruler.
          if (rulers ? is_ruler(u) : try_claim<Shared>(claims, u)) {
            if (rulers) claims[u] = 1;
            seed = u;
            ++next;
            return true;
          }
        }
        return false;
      };
      walks.local().run(next_seed, placement);
    });
  }
}

// The old id after new id i (renumber.hpp's next_in_order).
node_t next_old(const LocalityRenumbering& r, std::size_t i) { return next_in_order(r.order.get(), r.view.n, i); }

// The share of edges that jump (whose target is not the next node in the
// order), from the rows of evenly spaced nodes.
double jump_share(const LocalityRenumbering& r) {
  const std::size_t n = r.view.n, samples = std::min<std::size_t>(n, Tuning::jump_sample);
  std::uint64_t edges = 0, jumps = 0;
  for (std::size_t s = 0; s < samples; ++s) {
    const std::size_t i = s * n / samples;
    const node_t next = next_old(r, i);
    for (edge_t k = r.offsets[i]; k < r.offsets[i + 1]; ++k, ++edges) jumps += r.targets[k] != next;
  }
  return edges == 0 ? 0 : static_cast<double>(jumps) / static_cast<double>(edges);
}

// The old -> new map, where a jump needs it: for every node when many
// edges jump, else only for the nodes that jumps reach (marked in a bit a
// node first), so that a chain's renumbering writes a few entries at random
// instead of one a node.
void map_jump_targets(const LocalityRenumbering& r, node_t* position, const ParallelConfig& pc) {
  const std::size_t n = r.view.n;
  if (jump_share(r) > Tuning::sparse_jump_share) {
    for_range(pc, 0, n, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) position[r.order[i]] = static_cast<node_t>(i);
    });
    return;
  }
  std::vector<std::uint64_t> reached((n + 63) / 64, 0);
  for_range(pc, 0, n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const node_t next = next_old(r, i);
      for (edge_t k = r.offsets[i]; k < r.offsets[i + 1]; ++k) {
        const node_t v = r.targets[k];
        if (v != next) std::atomic_ref(reached[v / 64]).fetch_or(std::uint64_t{1} << (v % 64), std::memory_order_relaxed);
      }
    }
  });
  for_range(pc, 0, n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const node_t u = r.order[i];
      if (reached[u / 64] >> (u % 64) & 1) position[u] = static_cast<node_t>(i);
    }
  });
}

// The rows, placed in old ids, in new ids: a successor that the order puts
// right after its node (a chain's, in all but a run's last node) is named
// without reading the map; the others' entries are asked for a few nodes
// ahead, so that their misses overlap.
void name_successors(LocalityRenumbering& r, const ParallelConfig& pc) {
  const node_t n = r.view.n;
  const edge_t* const off = r.offsets.get();
  node_t* const targets = r.targets.get();
  // Left unset but where jumps read it: only the pages they reach are touched.
  const auto position = std::make_unique_for_overwrite<node_t[]>(n);
  map_jump_targets(r, position.get(), pc);
  constexpr std::size_t ahead = Tuning::mex_prefetch_row / 2;
  const auto row = [&](std::size_t i) { return std::pair(targets + off[i], static_cast<std::size_t>(off[i + 1] - off[i])); };
  for_range(pc, 0, n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      if (i + ahead < e) {
        const auto [later, d] = row(i + ahead);
        prefetch_named(later, d, next_old(r, i + ahead), position.get());
      }
      const auto [mine, d] = row(i);
      name_row(mine, d, next_old(r, i), i, position.get(), mine);
    }
  });
}

}  // namespace

CycleError LocalityRenumbering::in_old_ids(const CycleError& e) const {
  std::vector<node_t> cycle = e.nodes();
  for (node_t& u : cycle) u = order[u];
  return CycleError(std::move(cycle));
}

template <class Target>
bool renumbering_fits(const BasicCsr<Target>& g, std::uint64_t beside) {
  // The order (4 a node), the claims (1), the renumbered graph (8 + 4 for
  // offsets and the old-to-new map, 4 an edge) and what its solve adds (4
  // for values).
  const std::uint64_t n = g.n, own = n * 21 + g.m * 4;
  return graph_bytes(g) + beside + own <= memory_budget_bytes();
}

template <class Target>
LocalityRenumbering renumber_by_locality(const BasicCsr<Target>& g, const SolveConfig& config, PhaseTimer* timer) {
  if (timer) timer->start("locality order");
  LocalityRenumbering r;
  // Left unset until the walks' batches write them, so that their pages are
  // first touched there, by every thread, and once.
  r.order = std::make_unique_for_overwrite<node_t[]>(g.n);
  r.offsets = std::make_unique_for_overwrite<edge_t[]>(std::size_t{g.n} + 1);
  r.targets = std::make_unique_for_overwrite<node_t[]>(g.m);
  r.view = {g.n, g.m, r.offsets.get(), r.targets.get()};
  Placement placement(r);
  {
    Array<std::uint8_t> claims(g.n, 0);
    if (config.loops.threads > 1) {
      walk_all<true>(g, config, claims.data(), placement);
    } else {
      walk_all<false>(g, config, claims.data(), placement);
    }
  }
  if (placement.placed_nodes() != g.n || placement.placed_edges() != g.m)
    throw std::logic_error("locality order: the walks placed " + std::to_string(placement.placed_nodes()) + " of " +
                           std::to_string(g.n) + " nodes, " + std::to_string(placement.placed_edges()) + " of " +
                           std::to_string(g.m) + " edges");
  if (timer) timer->start("renumber");
  name_successors(r, config.loops);
  if (timer) timer->stop();
  return r;
}

template LocalityRenumbering renumber_by_locality(const CsrView&, const SolveConfig&, PhaseTimer*);
template LocalityRenumbering renumber_by_locality(const WideCsrView&, const SolveConfig&, PhaseTimer*);
template bool renumbering_fits(const CsrView&, std::uint64_t);
template bool renumbering_fits(const WideCsrView&, std::uint64_t);

}  // namespace grundy
