// Small helpers shared by the tests: building games from edge lists and an
// independent, set-based check of the mex rule.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "grundy/csr_graph.hpp"
#include "grundy/serial_solver.hpp"

namespace grundy::testing {

/// A game from 1-based edges and tokens, as a user would write them.
inline OwnedGame make_game(node_t n, const std::vector<std::pair<node_t, node_t>>& edges,
                           const std::vector<node_t>& tokens = {}) {
  std::vector<node_t> pairs;
  for (auto [u, v] : edges) {
    pairs.push_back(u - 1);
    pairs.push_back(v - 1);
  }
  OwnedGame g;
  build_csr(n, pairs, g);
  for (node_t t : tokens) g.tokens.push_back(t - 1);
  return g;
}

/// The first node whose value is not the mex of its successors' values, or
/// n if every node satisfies the rule. Uses std::set: slow and obviously right.
inline node_t first_mex_violation(const CsrView& g, const std::vector<sg_t>& sg) {
  for (node_t u = 0; u < g.n; ++u) {
    std::set<sg_t> seen;
    for (node_t v : g.successors(u)) seen.insert(sg[v]);
    sg_t mex = 0;
    while (seen.count(mex)) ++mex;
    if (sg[u] != mex) return u;
  }
  return g.n;
}

}  // namespace grundy::testing
