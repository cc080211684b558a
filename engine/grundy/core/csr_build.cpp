#include <algorithm>

#include "grundy/core/csr_graph.hpp"

namespace grundy {

std::optional<std::size_t> build_csr(node_t n, std::span<const node_t> pairs, OwnedGame& out) {
  const std::size_t m = pairs.size() / 2;
  out.n = n;
  out.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  out.targets.resize(m);
  edge_t* off = out.offsets.data();
  // off[u] counts u's edges; an inclusive prefix sum turns it into the end of
  // u's row. Filling rows back to front then leaves off[u] at the row's start
  // and keeps each row in input order, with no second cursor array.
  bool loops = false;
  for (std::size_t e = 0; e < m; ++e) {
    ++off[pairs[2 * e]];
    loops |= pairs[2 * e] == pairs[2 * e + 1];
  }
  for (std::size_t u = 1; u < n; ++u) off[u] += off[u - 1];
  for (std::size_t e = m; e-- > 0;) out.targets[--off[pairs[2 * e]]] = pairs[2 * e + 1];
  off[n] = m;
  if (!loops) return std::nullopt;
  std::size_t e = 0;
  while (pairs[2 * e] != pairs[2 * e + 1]) ++e;
  return e;
}

}  // namespace grundy
