#include "grundy/solve/locality_order.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <stdexcept>
#include <vector>

#include "grundy/core/memory_budget.hpp"
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

// Walks in lockstep on one thread. A step takes each walk's next node
// through three loops: its row's bounds (its offsets were asked for when it
// was claimed), then its successors' claims and offsets asked for, then the
// claims taken. Each loop's misses are independent, so they overlap.
template <bool Shared, class Csr>
class Walks {
 public:
  Walks(const Csr& g, std::uint8_t* claims) : g_(g), claims_(claims), walks_(Tuning::walks_in_flight) {}

  // Walks breadth-first from each seed that next_seed(node&) gives (a node
  // it claimed) until every node it reaches is a ruler or claimed,
  // appending each walk's nodes to `out` in the order claimed, a few
  // thousand at a time.
  template <class NextSeed>
  void run(const NextSeed& next_seed, std::vector<node_t>& out) {
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
        for (edge_t e = k.lo; e < k.hi; ++e) {
          const auto v = static_cast<node_t>(targets[e]);
          if (!is_ruler(v) && try_claim<Shared>(claims_, v)) k.nodes.push_back(v);
        }
        if (++k.head < k.nodes.size()) {
          // A long walk hands over what it has expanded: its buffer stays small.
          if (k.head == Tuning::walk_flush) {
            out.insert(out.end(), k.nodes.begin(), k.nodes.begin() + k.head);
            k.nodes.erase(k.nodes.begin(), k.nodes.begin() + k.head);
            k.head = 0;
          }
          ++w;
          continue;
        }
        out.insert(out.end(), k.nodes.begin(), k.nodes.end());
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
    edge_t lo = 0, hi = 0;  // the row of nodes[head], this step
  };

  template <class NextSeed>
  bool start(Walk& k, const NextSeed& next_seed) {
    node_t seed;
    if (!next_seed(seed)) return false;
    k.nodes.clear();
    k.nodes.push_back(seed);
    k.head = 0;
    __builtin_prefetch(g_.offsets + seed);
    return true;
  }

  const Csr& g_;
  std::uint8_t* const claims_;
  std::vector<Walk> walks_;
};

// Both passes over id blocks of Tuning::walk_block nodes, a task each: first
// the walks from the rulers, then from each node still unclaimed. Returns
// the walks' nodes, one list per thread and pass.
template <bool Shared, class Csr>
std::vector<std::vector<node_t>> walk_all(const Csr& g, const SolveConfig& config, std::uint8_t* claims) {
  const std::size_t block = std::max<std::size_t>(1, config.tuning.walk_block);
  PerThread<Walks<Shared, Csr>> walks([&] { return Walks<Shared, Csr>(g, claims); });
  std::vector<std::vector<node_t>> lists;
  const std::size_t blocks = (std::size_t{g.n} + block - 1) / block;
  for (const bool rulers : {true, false}) {
    PerThread<std::vector<node_t>> found;
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
      walks.local().run(next_seed, found.local());
    });
    for (auto& list : found) lists.push_back(std::move(list));
  }
  return lists;
}

}  // namespace

CycleError LocalityRenumbering::in_old_ids(const CycleError& e) const {
  std::vector<node_t> cycle = e.nodes();
  for (node_t& u : cycle) u = order[u];
  return CycleError(std::move(cycle));
}

template <class Target>
bool renumbering_fits(const BasicCsr<Target>& g, std::uint64_t beside) {
  // The order and the walks' lists (4 + 4 a node), the claims (1), the
  // renumbered graph (8 + 4 for offsets and the old-to-new map, 4 an edge)
  // and what its solve adds (4 for values).
  const std::uint64_t n = g.n, own = n * 25 + g.m * 4;
  return graph_bytes(g) + beside + own <= memory_budget_bytes();
}

template <class Target>
LocalityRenumbering renumber_by_locality(const BasicCsr<Target>& g, const SolveConfig& config, PhaseTimer* timer) {
  LocalityRenumbering r;
  if (timer) timer->start("locality order");
  r.order = locality_order(g, config);
  if (timer) timer->start("renumber");
  // Left unset until the permutation's loops write them, so that their
  // pages are first touched there, by every thread, and once.
  r.offsets = std::make_unique_for_overwrite<edge_t[]>(std::size_t{g.n} + 1);
  r.targets = std::make_unique_for_overwrite<node_t[]>(g.m);
  permute_graph(g, r.order.data(), config.loops, r.offsets.get(), r.targets.get(),
                std::make_unique_for_overwrite<node_t[]>(g.n).get());
  r.view = {g.n, g.m, r.offsets.get(), r.targets.get()};
  if (timer) timer->stop();
  return r;
}

template <class Target>
Array<node_t> locality_order(const BasicCsr<Target>& g, const SolveConfig& config) {
  Array<std::uint8_t> claims(g.n, 0);
  const auto lists =
      config.loops.threads > 1 ? walk_all<true>(g, config, claims.data()) : walk_all<false>(g, config, claims.data());
  Array<node_t> order;
  order.reserve(g.n);
  for (const auto& list : lists) order.insert(order.end(), list.begin(), list.end());
  if (order.size() != g.n)
    throw std::logic_error("locality order: the walks claimed " + std::to_string(order.size()) + " of " +
                           std::to_string(g.n) + " nodes");
  return order;
}

template Array<node_t> locality_order(const CsrView&, const SolveConfig&);
template Array<node_t> locality_order(const WideCsrView&, const SolveConfig&);
template LocalityRenumbering renumber_by_locality(const CsrView&, const SolveConfig&, PhaseTimer*);
template LocalityRenumbering renumber_by_locality(const WideCsrView&, const SolveConfig&, PhaseTimer*);
template bool renumbering_fits(const CsrView&, std::uint64_t);
template bool renumbering_fits(const WideCsrView&, std::uint64_t);

}  // namespace grundy
