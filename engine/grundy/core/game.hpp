// From SG values to the answer: the nim-sum of the token positions, the
// verdict, and one winning move.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/sg_values.hpp"

namespace grundy {

/// XOR of the SG values under every token.
sg_t nim_sum(const SgValues& sg, std::span<const node_t> tokens);

/// A move that leaves the opponent a zero nim-sum.
struct Move {
  std::size_t token = 0;  ///< 0-based index into the token list
  node_t from = 0;        ///< 0-based node ids
  node_t to = 0;
};

/// The first token (in input order) whose SG value x has x ^ X < x, moved
/// along its first edge (in input order) to a node of SG value x ^ X.
/// Empty when X == 0: every move loses.
template <class Target>
std::optional<Move> winning_move(const BasicGame<Target>& game, const SgValues& sg);

/// A winning move as the user numbers it: all three 1-based, nodes by the
/// user's ids (`original_ids`: stored id -> the user's, empty when the same).
struct UserMove {
  std::uint64_t token = 0, from = 0, to = 0;
};
/// Node u as the user numbers it: 1-based, by `original_ids` when given.
inline std::uint64_t user_number(std::span<const node_t> original_ids, node_t u) {
  return std::uint64_t{original_ids.empty() ? u : original_ids[u]} + 1;
}
/// A 0-based move as the user numbers it.
inline UserMove user_move_of(const Move& mv, std::span<const node_t> original_ids) {
  return {mv.token + 1, user_number(original_ids, mv.from), user_number(original_ids, mv.to)};
}
std::optional<UserMove> user_move(const GameView& game, const SgValues& sg, std::span<const node_t> original_ids = {});

/// "move <token> <from> <to>", or "move none" for no move. No line end.
std::string move_text(const std::optional<UserMove>& move);

/// "move <token> <from> <to>" (1-based, nodes as the user numbers them:
/// original_ids maps stored ids back, empty when they are the same), or
/// "move none" when every move loses. No line end.
std::string move_line(const GameView& game, const SgValues& sg, std::span<const node_t> original_ids = {});

}  // namespace grundy
