// Games with cycles: generalized Sprague-Grundy values (Smith 1966; Fraenkel
// and Yesha 1986) and what they decide.
//
// On a digraph with cycles a node's value gamma(u) is a natural number or
// infinity(K), K being the finite values among u's successors. Finite values
// add by XOR as on a DAG; a sum with one infinite token wins iff the other
// tokens' XOR is in its K, and a sum with two or more is a draw. The counter
// function c (Fraenkel's condition B) orders the finite nodes so that the
// winner's reversing moves make progress: play from a win ends.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/game.hpp"
#include "grundy/core/huge_array.hpp"
#include "grundy/core/sg_values.hpp"

namespace grundy {

/// gamma(u) = infinity(K): K is not stored, it is read off the successors.
inline constexpr sg_t kInfinite = 0xFFFFFFFFu;

/// The result of a single-token or summed game on a graph with cycles.
enum class Outcome : char { win = 'W', lose = 'L', draw = 'D' };

/// "win", "lose" or "draw".
const char* outcome_word(Outcome o);

/// Every node's generalized SG value and its counter.
struct LoopyValues {
  Array<sg_t> value;             ///< finite, or kInfinite
  Array<std::uint32_t> counter;  ///< Fraenkel's c, meaningful for finite nodes

  std::size_t size() const { return value.size(); }
  bool finite(node_t u) const { return value[u] != kInfinite; }
};

/// Whether some successor of u has the finite value a (a in K(u) when u is infinite).
template <class Target>
bool has_successor_value(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u, sg_t a);

/// The outcome of one token on u.
template <class Target>
Outcome node_outcome(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u);

/// The verdict of a sum of tokens, and what it was decided by.
struct LoopyVerdict {
  Outcome outcome = Outcome::lose;
  sg_t finite_xor = 0;                 ///< XOR of the tokens' finite values
  std::uint64_t infinite_tokens = 0;   ///< tokens on infinite nodes
  std::optional<std::size_t> infinite_token;  ///< the one infinite token's index, when there is exactly one
};
template <class Target>
LoopyVerdict loopy_verdict(const BasicGame<Target>& game, const LoopyValues& values);

/// A winning move that respects the counter function: from finite values,
/// the first token whose value x has x ^ a < x, to its successor of value
/// x ^ a with the least counter; from the single infinite token, to its
/// successor of value a with the least counter. Empty on a loss or a draw.
template <class Target>
std::optional<Move> loopy_winning_move(const BasicGame<Target>& game, const LoopyValues& values);
std::optional<UserMove> loopy_user_move(const GameView& game, const LoopyValues& values,
                                        std::span<const node_t> original_ids = {});

/// K(u) sorted, at most `limit` members; `*more` gets how many were left out.
template <class Target>
std::vector<sg_t> infinite_set(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u, std::size_t limit,
                               std::uint64_t* more = nullptr);

/// "3", or "inf:0,2,5" ("inf:" for an empty K); a K longer than `limit`
/// shows its first `limit` members and " (+N more)", N also set in `*more`.
template <class Target>
std::string loopy_value_text(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u, std::size_t limit,
                             std::uint64_t* more = nullptr);

}  // namespace grundy
