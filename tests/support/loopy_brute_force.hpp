// A brute-force retrograde analysis of the game itself on tiny digraphs with
// cycles, used only as a test oracle.
//
// It knows nothing of generalized SG values: a position is the sorted
// multiset of token nodes; a position with no move is lost, one with a move
// to a lost position is won, one whose every move reaches a won position is
// lost, and the rest are draws (the least fixed point, found by iterating).
#pragma once

#include <algorithm>
#include <map>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/loopy.hpp"

namespace grundy::test_support {

class LoopyBruteForce {
 public:
  /// Every position of `tokens` tokens (1..3) on g.
  LoopyBruteForce(const CsrView& g, std::size_t tokens) : g_(g) {
    std::vector<node_t> p(tokens, 0);
    enumerate(p, 0, 0);
    solve();
  }

  Outcome outcome(std::vector<node_t> tokens) const {
    std::sort(tokens.begin(), tokens.end());
    return result_.at(index_.at(tokens));
  }

 private:
  void enumerate(std::vector<node_t>& p, std::size_t i, node_t from) {
    if (i == p.size()) {
      index_.emplace(p, positions_.size());
      positions_.push_back(p);
      return;
    }
    for (node_t u = from; u < g_.n; ++u) {
      p[i] = u;
      enumerate(p, i + 1, u);
    }
  }
  std::vector<std::size_t> moves(const std::vector<node_t>& p) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < p.size(); ++i)
      for (node_t v : g_.successors(p[i])) {
        std::vector<node_t> q = p;
        q[i] = v;
        std::sort(q.begin(), q.end());
        out.push_back(index_.at(q));
      }
    return out;
  }
  void solve() {
    const std::size_t n = positions_.size();
    std::vector<std::vector<std::size_t>> next(n);
    for (std::size_t k = 0; k < n; ++k) next[k] = moves(positions_[k]);
    result_.assign(n, Outcome::draw);
    std::vector<bool> known(n, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t k = 0; k < n; ++k) {
        if (known[k]) continue;
        bool all_won = true, some_lost = false;
        for (std::size_t j : next[k]) {
          if (known[j] && result_[j] == Outcome::lose) some_lost = true;
          if (!known[j] || result_[j] != Outcome::win) all_won = false;
        }
        if (some_lost || all_won) {
          result_[k] = some_lost ? Outcome::win : Outcome::lose;
          known[k] = changed = true;
        }
      }
    }
  }

  CsrView g_;
  std::vector<std::vector<node_t>> positions_;
  std::map<std::vector<node_t>, std::size_t> index_;
  std::vector<Outcome> result_;
};

}  // namespace grundy::test_support
