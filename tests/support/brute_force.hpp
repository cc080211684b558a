// A brute-force game search for tiny graphs, used only as a test oracle.
//
// It knows nothing of Sprague-Grundy values: a position is the sorted
// multiset of token nodes, and it is a win iff some single-token move leads
// to a lost position. It checks the whole chain (mex, XOR, verdict) from the
// rules of the game alone.
#pragma once

#include <algorithm>
#include <map>
#include <vector>

#include "grundy/core/csr_graph.hpp"

namespace grundy::test_support {

class BruteForce {
 public:
  explicit BruteForce(const CsrView& g) : g_(g) {}

  bool first_player_wins(std::vector<node_t> tokens) {
    std::sort(tokens.begin(), tokens.end());
    if (auto it = memo_.find(tokens); it != memo_.end()) return it->second;
    bool win = false;
    for (std::size_t i = 0; i < tokens.size() && !win; ++i) {
      if (i > 0 && tokens[i] == tokens[i - 1]) continue;  // same node, same moves
      for (node_t v : g_.successors(tokens[i])) {
        std::vector<node_t> next = tokens;
        next[i] = v;
        if (!first_player_wins(std::move(next))) {
          win = true;
          break;
        }
      }
    }
    memo_.emplace(std::move(tokens), win);
    return win;
  }

 private:
  CsrView g_;
  std::map<std::vector<node_t>, bool> memo_;
};

}  // namespace grundy::test_support
