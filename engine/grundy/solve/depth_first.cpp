#include "grundy/solve/depth_first.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "grundy/core/cycle.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/solve/target_sample.hpp"

namespace grundy {
namespace {

// The walk's sentinels are the two largest 16-bit values: every value must
// stay below them.
constexpr bool values_below_sentinels(edge_t m) {
  return SgValues::values_below(m, std::numeric_limits<std::uint16_t>::max() - 1);
}

// The walk for one width of values. Each edge's value is read once: a
// frame gathers the bits (and heights) of its solved successors as it scans
// them, and a successor entered from it adds its own when it leaves the
// stack, so a node's mex is ready when it leaves; only a node whose
// successors hold every value below 64 reads its row again (BitsetMex).
// Past the cache (Prefetch), entering a node asks for the offsets of its
// first successors, which the walk enters next, so that their misses
// overlap; leaving a frame for a successor asks for the rows of the next
// few, whose offsets have arrived by then, so that their misses overlap the
// successor's subtree (docs/TUNING.md#depth-first-path).
// Returns the depth (with Heights), or nothing where the path would hold
// more than max_path nodes.
template <bool Heights, bool Prefetch, class Sg, class Target>
std::optional<std::size_t> walk(const BasicCsr<Target>& g, DepthFirstScratch& s, Sg* __restrict sg,
                                std::size_t max_path) {
  constexpr Sg kUnvisited = std::numeric_limits<Sg>::max(), kOnPath = kUnvisited - 1;
  const edge_t* __restrict off = g.offsets;
  const Target* __restrict targets = g.targets;
  node_t* __restrict heights = s.heights.data();
  // Sinks are solved before the walk: a scan then reads their value like
  // any solved successor's instead of pushing and popping a frame for it.
  // A height is read only once its node is solved, so every node may start
  // at a sink's.
  for (node_t u = 0; u < g.n; ++u) {
    sg[u] = off[u + 1] == off[u] ? Sg{0} : kUnvisited;
    if constexpr (Heights) heights[u] = 1;
  }
  std::vector<DepthFirstScratch::Frame>& path = s.path;
  path.clear();
  // Room for the deepest path at once, so that a chain's path is not copied
  // as it grows (pages are touched only as the path reaches them).
  path.reserve(std::min<std::size_t>(g.n, max_path));
  std::size_t depth = g.n > 0 ? 1 : 0;  // a sink's height
  const auto enter = [&](node_t v) {
    if (path.size() == max_path) return false;
    sg[v] = kOnPath;
    const edge_t first = off[v];
    path.push_back({v, 0, first, 0});
    if constexpr (Prefetch) {
      const edge_t ahead = std::min<edge_t>(off[v + 1], first + Tuning::depth_first_prefetch);
      for (edge_t k = first; k < ahead; ++k) __builtin_prefetch(off + targets[k]);
    }
    return true;
  };
  for (node_t root = 0; root < g.n; ++root) {
    if (sg[root] != kUnvisited) continue;
    if (!enter(root)) return std::nullopt;
    while (!path.empty()) {
      DepthFirstScratch::Frame& f = path.back();
      const edge_t end = off[f.node + 1];
      std::uint64_t seen = f.seen;
      node_t below = f.below;
      edge_t k = f.next;
      for (; k < end; ++k) {  // successors solved already
        const auto v = static_cast<node_t>(targets[k]);
        const Sg x = sg[v];
        if (x >= kOnPath) break;
        seen |= mex_bit(x);
        if constexpr (Heights) below = std::max(below, heights[v]);
      }
      if (k < end) {
        const auto v = static_cast<node_t>(targets[k]);
        if constexpr (Prefetch) {  // the rows of the next successors, entered after v's subtree
          const edge_t stop = std::min<edge_t>(end, k + 1 + Tuning::depth_first_sibling_rows);
          for (edge_t j = k + 1; j < stop; ++j) __builtin_prefetch(targets + off[targets[j]]);
        }
        f = {f.node, below, k + 1, seen};
        if (sg[v] == kOnPath) throw CycleError(cycle_on_path(path, v, [](const auto& p) { return p.node; }));
        if (!enter(v)) return std::nullopt;
        continue;
      }
      const node_t u = f.node;
      path.pop_back();
      auto x = static_cast<Sg>(std::countr_one(seen));
      if (x == 64) x = s.mex(targets + off[u], static_cast<std::size_t>(end - off[u]), sg);
      sg[u] = x;
      if constexpr (Heights) {
        heights[u] = below + 1;
        depth = std::max<std::size_t>(depth, below + 1);
      }
      if (!path.empty()) {  // u's parent, whose scan passed it
        DepthFirstScratch::Frame& parent = path.back();
        parent.seen |= mex_bit(x);
        if constexpr (Heights) parent.below = std::max(parent.below, below + 1);
      }
    }
  }
  return depth;
}

bool enough_edges(node_t n, edge_t m, const Tuning& t) {
  return m >= t.depth_first_from_edges || (m > 0 && m >= t.depth_first_from_degree * n);
}

}  // namespace

bool takes_depth_first(node_t n, edge_t m, const SolveConfig& config) {
  return config.loops.threads <= Tuning::depth_first_max_threads && n < config.tuning.depth_first_below &&
         enough_edges(n, m, config.tuning) && values_below_sentinels(m);
}

template <class Target>
bool takes_depth_first(const BasicCsr<Target>& g, const SolveConfig& config, bool with_depth) {
  if (takes_depth_first(g.n, g.m, config)) return true;
  if (with_depth || config.loops.threads > Tuning::depth_first_max_threads || g.n < Tuning::depth_first_hub_from ||
      !values_below_sentinels(g.m))
    return false;
  // Past the cache and below the node bar, the walk whatever the edges: a
  // sparse graph's sinks are solved before it starts; elsewhere, only a graph whose
  // targets repeat, and past the node bar on one thread only, where a
  // second thread's layering wins on all but the sparsest.
  if (g.n >= Tuning::cached_nodes && g.n < config.tuning.depth_first_below) return true;
  if (g.n >= config.tuning.depth_first_below && config.loops.threads != 1) return false;
  // A small graph's sample is small, so that evenly spread targets stay far below the bar.
  const std::size_t samples = std::min<std::size_t>(Tuning::repeated_targets_sample, g.n / Tuning::repeated_targets_nodes);
  return g.n / Tuning::depth_first_hub_scale < config.tuning.depth_first_below &&
         repeated_target_share(g, samples) >= Tuning::repeated_targets_share;
}

template <class Target>
bool walks_when_deep(const BasicCsr<Target>& g, const SolveConfig& config) {
  return config.loops.threads <= Tuning::depth_first_max_threads && g.n < config.tuning.depth_first_below &&
         g.n < config.tuning.reorder_deep_from && values_below_sentinels(g.m);
}

template <class Target>
bool walks_renumbered(const BasicCsr<Target>& g, const SolveConfig& config) {
  return config.loops.threads <= Tuning::depth_first_max_threads && values_below_sentinels(g.m);
}

std::uint64_t depth_first_bytes(node_t n, bool with_depth) {
  return std::uint64_t{n} * (sizeof(DepthFirstScratch::Frame) + (with_depth ? sizeof(node_t) : 0));
}

template <class Target>
std::size_t depth_first_path_bound(const BasicCsr<Target>& g, const SolveConfig& config) {
  // Deep, a graph walks_when_deep takes would be walked after its rounds.
  return takes_depth_first(g.n, g.m, config) || walks_when_deep(g, config) ? SIZE_MAX
                                                                           : g.n / Tuning::hub_walk_depth_share;
}

template <class Target>
double repeated_target_share(const BasicCsr<Target>& g, std::size_t samples) {
  // A bit a node, not a sort: the test stays cheap beside a small graph's walk.
  std::vector<std::uint64_t> seen((static_cast<std::size_t>(g.n) + 63) / 64, 0);
  std::size_t repeated = 0;
  const std::size_t count = for_target_sample(g, samples, [&](node_t v) {
    const std::uint64_t bit = std::uint64_t{1} << (v % 64);
    repeated += (seen[v / 64] & bit) != 0;
    seen[v / 64] |= bit;
  });
  return count == 0 ? 0 : static_cast<double>(repeated) / static_cast<double>(count);
}

template <class Target>
bool depth_first_sg(const BasicCsr<Target>& g, DepthFirstScratch& scratch, SgValues& sg, std::size_t* depth,
                    std::size_t max_path) {
  if (!values_below_sentinels(g.m)) throw std::logic_error("depth_first_sg: values could reach the walk's sentinels");
  trace::Span span("depth-first pass", "dfs + mex");
  sg.reset(g.n, g.m);
  if (depth != nullptr) scratch.heights.resize(g.n);
  const bool prefetch = g.n >= Tuning::cached_nodes;
  std::optional<std::size_t> walked;
  sg.visit([&]<class Sg>(std::span<Sg> values) {
    if (depth != nullptr) {
      walked = prefetch ? walk<true, true>(g, scratch, values.data(), max_path)
                        : walk<true, false>(g, scratch, values.data(), max_path);
    } else {
      walked = prefetch ? walk<false, true>(g, scratch, values.data(), max_path)
                        : walk<false, false>(g, scratch, values.data(), max_path);
    }
  });
  if (walked && depth != nullptr) *depth = *walked;
  return walked.has_value();
}

template bool walks_when_deep(const CsrView&, const SolveConfig&);
template bool walks_when_deep(const WideCsrView&, const SolveConfig&);
template bool walks_renumbered(const CsrView&, const SolveConfig&);
template bool walks_renumbered(const WideCsrView&, const SolveConfig&);
template bool takes_depth_first(const CsrView&, const SolveConfig&, bool);
template bool takes_depth_first(const WideCsrView&, const SolveConfig&, bool);
template std::size_t depth_first_path_bound(const CsrView&, const SolveConfig&);
template std::size_t depth_first_path_bound(const WideCsrView&, const SolveConfig&);
template double repeated_target_share(const CsrView&, std::size_t);
template double repeated_target_share(const WideCsrView&, std::size_t);
template bool depth_first_sg(const CsrView&, DepthFirstScratch&, SgValues&, std::size_t*, std::size_t);
template bool depth_first_sg(const WideCsrView&, DepthFirstScratch&, SgValues&, std::size_t*, std::size_t);

}  // namespace grundy
