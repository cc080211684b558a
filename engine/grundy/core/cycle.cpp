#include "grundy/core/cycle.hpp"

#include <algorithm>
#include <cstdint>

namespace grundy {

CycleError::CycleError(std::vector<node_t> cycle)
    : std::runtime_error(describe_cycle(cycle)), cycle_(std::move(cycle)) {}

std::string describe_cycle(const std::vector<node_t>& cycle) {
  // A cycle can be millions of nodes long; an error is one readable line, so
  // long cycles show their first and last few steps and their length.
  constexpr std::size_t kShownEachEnd = 8;
  const std::size_t nodes = cycle.empty() ? 0 : cycle.size() - 1;
  const bool abbreviate = cycle.size() > 4 * kShownEachEnd;
  std::string s = abbreviate ? "cycle (" + std::to_string(nodes) + " nodes):" : "cycle:";
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (abbreviate && i == kShownEachEnd) {
      s += " -> ...";
      i = cycle.size() - kShownEachEnd - 1;
      continue;
    }
    s += i == 0 ? " " : " -> ";
    s += std::to_string(static_cast<std::uint64_t>(cycle[i]) + 1);
  }
  return s;
}

template <class Target>
std::vector<node_t> find_cycle(const BasicCsr<Target>& g, const std::function<bool(node_t)>& candidate) {
  enum : std::uint8_t { kWhite, kOnPath, kDone };
  Array<std::uint8_t> color(g.n, kWhite);
  // The explicit stack holds the current path and, per node, the next edge to
  // try: the path itself is the cycle's prefix when a back edge turns up.
  std::vector<std::pair<node_t, edge_t>> path;
  for (node_t root = 0; root < g.n; ++root) {
    if (color[root] != kWhite || !candidate(root)) continue;
    path.emplace_back(root, g.offsets[root]);
    color[root] = kOnPath;
    while (!path.empty()) {
      auto& [u, next] = path.back();
      if (next == g.offsets[u + 1]) {
        color[u] = kDone;
        path.pop_back();
        continue;
      }
      const auto v = static_cast<node_t>(g.targets[next++]);
      if (color[v] == kOnPath) {
        std::vector<node_t> cycle;
        auto it = std::find_if(path.begin(), path.end(), [v](const auto& f) { return f.first == v; });
        for (; it != path.end(); ++it) cycle.push_back(it->first);
        cycle.push_back(v);
        return cycle;
      }
      if (color[v] == kWhite && candidate(v)) {
        color[v] = kOnPath;
        path.emplace_back(v, g.offsets[v]);
      }
    }
  }
  return {};
}

template std::vector<node_t> find_cycle(const CsrView&, const std::function<bool(node_t)>&);
template std::vector<node_t> find_cycle(const WideCsrView&, const std::function<bool(node_t)>&);

}  // namespace grundy
