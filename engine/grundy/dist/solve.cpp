#include "grundy/dist/solve.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>

#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/dist/comm.hpp"
#include "grundy/dist/id_set.hpp"
#include "grundy/dist/packed_ids.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy::dist {
namespace {

constexpr node_t kPlaced = UINT32_MAX;  // a pending count: the node is peeled

// Seconds since the last lap, on this rank's clock.
struct Laps {
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last).count();
    last = now;
    return s;
  }
};

// The remote targets of a slice, deduplicated: each ghost's slot is its
// index in the set.
IdSet find_ghosts(const GraphSlice& s, const ParallelConfig& pc) {
  IdSet g(s.n);
  for_range(pc, 0, s.edges, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const node_t v = s.targets[i];
      if (v < s.lo || v >= s.hi) g.add(v);
    }
  });
  g.seal();
  return g;
}

// Whether to finish on rank 0 what is left (nodes and edges) after a
// super-round that peeled `width` nodes: when the rounds still to come (about
// left / width, a collective's latency each) would cost more than moving it
// all through rank 0 (about a thousandth of a latency per node or edge), and
// it fits beside rank 0's own share.
bool worth_gathering(const GraphSlice& s, std::uint64_t width, std::uint64_t nodes, std::uint64_t edges) {
  constexpr std::uint64_t kElementsPerLatency = 1000;
  const std::uint64_t room =
      std::max<std::uint64_t>((s.n + s.m) / static_cast<std::uint64_t>(world().size), std::uint64_t{1} << 26);
  return nodes + edges <= room && static_cast<double>(width) * static_cast<double>(nodes + edges) <
                                      static_cast<double>(kElementsPerLatency) * static_cast<double>(nodes);
}

// Targets become slots (own nodes 0..own-1, ghosts own.. after them), and
// each slot counts the edges into it: one pass over the edges for both.
void relabel_and_count(GraphSlice& s, const IdSet& g, node_t* in_edges, const ParallelConfig& pc) {
  const node_t own = s.nodes();
  for_range(pc, 0, s.edges, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const node_t v = s.targets[i];
      const node_t slot = v >= s.lo && v < s.hi ? v - s.lo : own + g.index(v);
      s.targets[i] = slot;
      std::atomic_ref<node_t>(in_edges[slot]).fetch_add(1, std::memory_order_relaxed);
    }
  });
}

// Which ranks point to each own node: from every other rank, its ghost
// bitmap's words over this rank's range.
struct Needs {
  std::vector<std::size_t> from;     // rank q's words start at words[from[q]]
  std::vector<std::uint32_t> words;  // u64 words as pairs of u32
  std::size_t first_word = 0;        // this rank's lo / 64

  bool of(int q, node_t local_lo, node_t u) const {  // rank q points to own node u (0-based in the slice)
    const std::size_t w = (local_lo + u) / 64 - first_word;
    const std::size_t at = from[static_cast<std::size_t>(q)] + 2 * w;
    if (at + 1 >= from[static_cast<std::size_t>(q) + 1]) return false;
    const std::uint64_t word = std::uint64_t{words[at]} | (std::uint64_t{words[at + 1]} << 32);
    return (word >> ((local_lo + u) & 63)) & 1;
  }
};

Needs exchange_needs(const GraphSlice& s, const IdSet& g) {
  const World& w = world();
  std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(w.size));
  for (int q = 0; q < w.size; ++q) {
    if (q == w.rank) continue;
    const node_t lo = s.part.begin[static_cast<std::size_t>(q)], hi = s.part.begin[static_cast<std::size_t>(q) + 1];
    if (lo == hi) continue;
    for (std::size_t word = lo / 64; word <= (hi - 1) / 64; ++word) {
      std::uint64_t bits = g.words()[word];
      const std::uint64_t base = word * 64;
      if (base < lo) bits &= ~std::uint64_t{0} << (lo - base);
      if (base + 64 > hi) bits &= (std::uint64_t{1} << (hi - base)) - 1;
      out[static_cast<std::size_t>(q)].push_back(static_cast<std::uint32_t>(bits));
      out[static_cast<std::size_t>(q)].push_back(static_cast<std::uint32_t>(bits >> 32));
    }
  }
  Needs needs;
  needs.words = trade(out, &needs.from);
  needs.first_word = s.lo / 64;
  return needs;
}

// What is left after the forward pass stopped early, solved on rank 0: the
// unpeeled nodes (closed under successors), their rows as global ids, and
// their user ids (for a cycle's message). Each rank gets its nodes' values.
void gather_and_finish(const GraphSlice& s, const IdSet& g, const std::vector<node_t>& left, Array<sg_t>& values,
                       const ParallelConfig& pc, DistStats& stats) {
  const World& w = world();
  const node_t own = s.nodes();
  std::vector<std::uint32_t> mine{static_cast<std::uint32_t>(left.size())};
  for (const node_t u : left) mine.push_back(s.lo + u);
  for (const node_t u : left) mine.push_back(s.user_id(s.lo + u));
  for (const node_t u : left) mine.push_back(static_cast<std::uint32_t>(s.offsets[u + 1] - s.offsets[u]));
  for (const node_t u : left)
    for (edge_t i = s.offsets[u]; i < s.offsets[u + 1]; ++i) {
      const node_t t = s.targets[i];
      mine.push_back(t < own ? s.lo + t : g.id(t - own));
    }
  std::vector<std::size_t> from;
  const std::vector<char> all =
      gather_bytes({reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(std::uint32_t)}, 0, &from);
  std::vector<std::vector<std::uint32_t>> back(static_cast<std::size_t>(w.size));
  together([&] {
    if (!w.leads()) return;
    // Each rank's part: count, ids, user ids, degrees, targets.
    const auto* words = reinterpret_cast<const std::uint32_t*>(all.data());
    std::vector<node_t> ids, users, part_of;
    std::vector<edge_t> offsets{0};
    std::vector<node_t> targets;
    for (int r = 0; r < w.size; ++r) {
      const std::uint32_t* p = words + from[static_cast<std::size_t>(r)] / sizeof(std::uint32_t);
      const std::uint32_t c = *p++;
      ids.insert(ids.end(), p, p + c);
      users.insert(users.end(), p + c, p + 2 * c);
      const std::uint32_t* degree = p + 2 * c;
      const std::uint32_t* t = p + 3 * c;
      for (std::uint32_t i = 0; i < c; ++i) {
        targets.insert(targets.end(), t, t + degree[i]);
        t += degree[i];
        offsets.push_back(targets.size());
        part_of.push_back(static_cast<node_t>(r));
      }
    }
    IdSet left_set(s.n);
    for (const node_t v : ids) left_set.add(v);
    left_set.seal();
    for (node_t& t : targets) t = left_set.index(t);
    OwnedGame game;
    game.n = static_cast<node_t>(ids.size());
    game.offsets.assign(offsets.begin(), offsets.end());
    game.targets.assign(targets.begin(), targets.end());
    stats.gathered_nodes = ids.size();
    stats.gathered_edges = targets.size();
    SgValues sg;
    try {
      sg = solve_sg(game.graph(), Algo::level, pc);
    } catch (const CycleError& e) {
      std::vector<node_t> cycle;
      for (const node_t c : e.nodes()) cycle.push_back(users[c]);
      throw InputError(s.name + ": " + describe_cycle(cycle) + kLoopyHint);
    }
    for (std::size_t i = 0; i < ids.size(); ++i) back[part_of[i]].push_back(sg[static_cast<node_t>(i)]);
  });
  const std::vector<std::uint32_t> got = trade(back);
  for (std::size_t i = 0; i < left.size(); ++i) values[left[i]] = got[i];
}

// Pushes the values of own nodes `nodes` to the ranks that point to them;
// stores the values that arrive in the ghost slots.
void push_values(const GraphSlice& s, const IdSet& g, const Needs& needs, std::span<const node_t> nodes,
                 Array<sg_t>& values) {
  const World& w = world();
  std::vector<node_t> sorted(nodes.begin(), nodes.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(w.size));
  for (int q = 0; q < w.size; ++q) {
    if (q == w.rank) continue;
    PackedIds packed(true);
    bool any = false;
    for (const node_t u : sorted)
      if (needs.of(q, s.lo, u)) {
        packed.add(u, values[u]);
        any = true;
      }
    if (any) out[static_cast<std::size_t>(q)] = packed.words();
  }
  std::vector<std::size_t> from;
  const std::vector<std::uint32_t> in = trade(out, &from);
  for (std::size_t q = 0; q + 1 < from.size(); ++q)
    PackedIds::each(std::span(in).subspan(from[q], from[q + 1] - from[q]), true,
                    [&](node_t u, std::uint32_t value) { values[s.nodes() + g.index(s.part.begin[q] + u)] = value; });
}

}  // namespace

DistValues solve_across_ranks(GraphSlice& s, const ParallelConfig& pc, DistStats& stats) {
  const World& w = world();
  Laps laps;
  const std::uint64_t sent_before = w.bytes_sent;
  const node_t own = s.nodes();
  // Ghosts, slots, and who points to whom.
  IdSet g = find_ghosts(s, pc);
  const Needs needs = exchange_needs(s, g);
  // One array serves both passes: the peel's counts (own nodes', then the
  // ghosts') become the values, a node's slot being done counting before
  // its value is written (sg_t and node_t are both 32 bits).
  static_assert(sizeof(sg_t) == sizeof(node_t));
  DistValues out;
  out.own = own;
  out.values.assign(std::size_t{own} + g.count(), 0);
  node_t* const pending = out.values.data();
  node_t* const ghost_pending = pending + own;
  relabel_and_count(s, g, pending, pc);
  for (int q = 0; q < w.size; ++q)
    if (q != w.rank)
      for (node_t u = 0; u < own; ++u) pending[u] += needs.of(q, s.lo, u);
  stats.ghosts = sum_all(g.count());
  stats.phases.emplace_back("ghosts", laps.lap());

  // Forward: super-rounds of local layers.
  Array<node_t> order(own);
  std::size_t placed = 0;
  std::vector<std::size_t> layer_end, round_end;  // into order; into layer_end
  std::vector<node_t> frontier;
  for (node_t u = 0; u < own; ++u)
    if (pending[u] == 0) frontier.push_back(u);
  std::uint64_t peeled_nodes = 0, peeled_edges = 0;
  std::vector<node_t> left;  // what rank 0 finishes, when the rest is gathered
  bool gathered = false;
  PerThread<std::vector<node_t>> next_local;
  PerThread<std::vector<std::vector<std::uint32_t>>> done_local(
      std::vector<std::vector<std::uint32_t>>(static_cast<std::size_t>(w.size)));
  while (true) {
    std::uint64_t round_nodes = 0, round_edges = 0;
    while (!frontier.empty()) {
      for (const node_t u : frontier) {
        order[placed++] = u;
        pending[u] = kPlaced;
      }
      layer_end.push_back(placed);
      round_nodes += frontier.size();
      const std::span<const node_t> layer(order.data() + placed - frontier.size(), frontier.size());
      for (auto& n : next_local) n.clear();
      const edge_t layer_edges = [&] {
        edge_t sum = 0;
        for (const node_t u : layer) sum += s.offsets[u + 1] - s.offsets[u];
        return sum;
      }();
      round_edges += layer_edges;
      const auto step = [&](std::size_t b, std::size_t e) {
        std::vector<node_t>& next = next_local.local();
        auto& done = done_local.local();
        for (std::size_t k = b; k < e; ++k) {
          const node_t u = layer[k];
          for (edge_t i = s.offsets[u]; i < s.offsets[u + 1]; ++i) {
            const node_t t = s.targets[i];
            if (t < own) {
              if (std::atomic_ref<node_t>(pending[t]).fetch_sub(1, std::memory_order_acq_rel) == 1) next.push_back(t);
            } else if (std::atomic_ref<node_t>(ghost_pending[t - own]).fetch_sub(1, std::memory_order_acq_rel) == 1) {
              const node_t v = g.id(t - own);
              done[static_cast<std::size_t>(s.part.owner(v))].push_back(v);
            }
          }
        }
      };
      if (pc.worth_it(layer.size(), layer_edges)) {
        for_range(ParallelConfig{pc.threads, 2, pc.grain_for(layer.size(), layer_edges)}, 0, layer.size(), step);
      } else {
        step(0, layer.size());
      }
      frontier.clear();
      for (auto& n : next_local) frontier.insert(frontier.end(), n.begin(), n.end());
      std::sort(frontier.begin(), frontier.end());
    }
    round_end.push_back(layer_end.size());
    // Each rank's notices, sorted and packed as gaps from its first id.
    std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(w.size));
    for (std::size_t q = 0; q < out.size(); ++q) {
      std::vector<node_t> ids;
      for (auto& done : done_local) {
        ids.insert(ids.end(), done[q].begin(), done[q].end());
        done[q] = {};  // a wide round's buffers are not kept for the narrow ones after it
      }
      std::sort(ids.begin(), ids.end());
      PackedIds packed(false);
      for (const node_t v : ids) packed.add(v - s.part.begin[q]);
      if (!ids.empty()) out[q] = packed.words();
    }
    const std::uint64_t extra[2] = {round_nodes, round_edges};
    std::uint64_t sums[2] = {0, 0};
    std::vector<std::size_t> from;
    const std::vector<std::uint32_t> in = trade(out, &from, extra, sums);
    ++stats.super_rounds;
    peeled_nodes += sums[0];
    peeled_edges += sums[1];
    for (std::size_t q = 0; q + 1 < from.size(); ++q)
      PackedIds::each(std::span(in).subspan(from[q], from[q + 1] - from[q]), false, [&](node_t u, std::uint32_t) {
        if (--pending[u] == 0) frontier.push_back(u);
      });
    std::sort(frontier.begin(), frontier.end());
    if (peeled_nodes == s.n) break;
    if (sums[0] == 0 || worth_gathering(s, sums[0], s.n - peeled_nodes, s.m - peeled_edges)) {
      for (node_t u = 0; u < own; ++u)
        if (pending[u] != kPlaced) left.push_back(u);
      gathered = true;
      break;
    }
  }
  stats.phases.emplace_back("peel", laps.lap());
  stats.local_layers = max_all(layer_end.size());
  std::fill(out.values.begin(), out.values.end(), 0);  // every count is spent; values from here on
  if (gathered) {
    gather_and_finish(s, g, left, out.values, pc, stats);
    stats.gathered_nodes = sum_all(stats.gathered_nodes);
    stats.gathered_edges = sum_all(stats.gathered_edges);
    push_values(s, g, needs, left, out.values);
    stats.phases.emplace_back("gather", laps.lap());
  }
  // Backward: super-rounds in reverse, local layers in reverse.
  PerThread<StampMex> mexes(StampMex(max_degree(CsrView{own, s.edges, s.offsets.data(), s.targets})));
  for (std::size_t r = round_end.size(); r-- > 0;) {
    const std::size_t first_layer = r == 0 ? 0 : round_end[r - 1];
    for (std::size_t l = round_end[r]; l-- > first_layer;) {
      const std::size_t b = l == 0 ? 0 : layer_end[l - 1], e = layer_end[l];
      const std::span<const node_t> layer(order.data() + b, e - b);
      const auto mex = [&](std::size_t from, std::size_t to) {
        StampMex& m = mexes.local();
        for (std::size_t k = from; k < to; ++k) {
          const node_t u = layer[k];
          out.values[u] =
              m(std::span<const node_t>(s.targets + s.offsets[u], s.offsets[u + 1] - s.offsets[u]), out.values.data());
        }
      };
      for_range(pc, 0, layer.size(), mex);
    }
    if (r > 0) {  // every rank pushes, even nothing: the exchange is collective
      const std::size_t b = first_layer == 0 ? 0 : layer_end[first_layer - 1];
      const std::size_t e = round_end[r] == 0 ? 0 : layer_end[round_end[r] - 1];
      push_values(s, g, needs, std::span<const node_t>(order.data() + b, e - b), out.values);
    }
  }
  stats.phases.emplace_back("mex", laps.lap());
  stats.exchange_bytes = sum_all(w.bytes_sent - sent_before);
  out.ghosts = std::move(g);
  return out;
}

}  // namespace grundy::dist
