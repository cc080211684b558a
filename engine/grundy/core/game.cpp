#include "grundy/core/game.hpp"

namespace grundy {

sg_t nim_sum(const SgValues& sg, std::span<const node_t> tokens) {
  sg_t x = 0;
  for (node_t t : tokens) x ^= sg[t];
  return x;
}

template <class Target>
std::optional<Move> winning_move(const BasicGame<Target>& game, const SgValues& sg) {
  const sg_t total = nim_sum(sg, game.tokens);
  if (total == 0) return std::nullopt;
  for (std::size_t i = 0; i < game.tokens.size(); ++i) {
    const node_t from = game.tokens[i];
    const sg_t want = sg[from] ^ total;
    if (want >= sg[from]) continue;
    // SG(from) is the mex of its successors, so every smaller value, `want`
    // among them, is held by some successor.
    for (const Target to : game.graph.successors(from))
      if (sg[static_cast<node_t>(to)] == want) return Move{i, from, static_cast<node_t>(to)};
  }
  return std::nullopt;  // unreachable when sg is correct
}

template std::optional<Move> winning_move(const GameView&, const SgValues&);
template std::optional<Move> winning_move(const WideGameView&, const SgValues&);

std::optional<UserMove> user_move(const GameView& game, const SgValues& sg, std::span<const node_t> original_ids) {
  const auto mv = winning_move(game, sg);
  if (!mv) return std::nullopt;
  return user_move_of(*mv, original_ids);
}

std::string move_text(const std::optional<UserMove>& m) {
  if (!m) return "move none";
  return "move " + std::to_string(m->token) + " " + std::to_string(m->from) + " " + std::to_string(m->to);
}

std::string move_line(const GameView& game, const SgValues& sg, std::span<const node_t> original_ids) {
  return move_text(user_move(game, sg, original_ids));
}

}  // namespace grundy
