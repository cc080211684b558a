// Small helpers shared by the tests: building games from edge lists, an
// independent, set-based check of the mex rule, and a check of a reported
// cycle.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/jobs/generated_file.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "run_process.hpp"

namespace grundy::test_support {

/// The bytes of datasets/sample.txt as a .gcsr (layered or not), written by
/// the library as `grundy convert` writes them.
inline std::string sample_gcsr(bool layered) {
  TempDir dir;
  const std::string path = dir.file("s.gcsr");
  const OwnedGame g = parse_classic(read_file(GRUNDY_SOURCE_DIR "/datasets/sample.txt"));
  if (layered) {
    write_layered_gcsr(path, g.view(), ParallelConfig{1}, "sample.txt");
  } else {
    write_gcsr(path, g.view());
  }
  return read_file(path);
}

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

/// The same graph over 64-bit ids (the API reads a caller's int64 arrays in place).
struct Widened {
  std::vector<std::uint64_t> targets;
  WideCsrView graph;
  explicit Widened(const CsrView& g)
      : targets(g.targets, g.targets + g.m), graph{g.n, g.m, g.offsets, targets.data()} {}
};

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

/// Checks that `cycle` (a CycleError's nodes) is one: at least one step,
/// first node repeated at the end, every step an edge of g.
inline void expect_valid_cycle(const OwnedGame& g, const std::vector<node_t>& cycle) {
  ASSERT_GE(cycle.size(), 2u);
  EXPECT_EQ(cycle.front(), cycle.back());
  for (std::size_t i = 0; i + 1 < cycle.size(); ++i) {
    const auto succ = g.graph().successors(cycle[i]);
    EXPECT_NE(std::find(succ.begin(), succ.end(), cycle[i + 1]), succ.end());
  }
}

}  // namespace grundy::test_support
