#include "grundy/core/loopy.hpp"

#include <algorithm>

namespace grundy {

const char* outcome_word(Outcome o) {
  switch (o) {
    case Outcome::win: return "win";
    case Outcome::lose: return "lose";
    case Outcome::draw: return "draw";
  }
  return "?";
}

template <class Target>
bool has_successor_value(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u, sg_t a) {
  for (node_t v : graph.successors(u))
    if (values[v] == a) return true;
  return false;
}

template <class Target>
Outcome node_outcome(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u) {
  const sg_t x = values[u];
  if (x == 0) return Outcome::lose;
  if (x != kInfinite) return Outcome::win;
  return has_successor_value(graph, values, u, 0) ? Outcome::win : Outcome::draw;
}

template <class Target>
LoopyVerdict loopy_verdict(const BasicGame<Target>& game, const LoopyValues& values) {
  LoopyVerdict v;
  for (std::size_t i = 0; i < game.tokens.size(); ++i) {
    const sg_t x = values.value[game.tokens[i]];
    if (x == kInfinite) {
      if (++v.infinite_tokens == 1) v.infinite_token = i;
    } else {
      v.finite_xor ^= x;
    }
  }
  if (v.infinite_tokens != 1) v.infinite_token.reset();
  if (v.infinite_tokens == 0) {
    v.outcome = v.finite_xor != 0 ? Outcome::win : Outcome::lose;
  } else if (v.infinite_tokens == 1) {
    const node_t u = game.tokens[*v.infinite_token];
    v.outcome = has_successor_value(game.graph, values.value, u, v.finite_xor) ? Outcome::win : Outcome::draw;
  } else {
    v.outcome = Outcome::draw;
  }
  return v;
}

namespace {

// u's successor of value `want` with the least counter (the first such in
// input order among equals).
template <class Target>
std::optional<node_t> least_counter_successor(const BasicCsr<Target>& graph, const LoopyValues& values, node_t u, sg_t want) {
  std::optional<node_t> best;
  for (node_t v : graph.successors(u))
    if (values.value[v] == want && (!best || values.counter[v] < values.counter[*best])) best = v;
  return best;
}

}  // namespace

template <class Target>
std::optional<Move> loopy_winning_move(const BasicGame<Target>& game, const LoopyValues& values) {
  const LoopyVerdict verdict = loopy_verdict(game, values);
  if (verdict.outcome != Outcome::win) return std::nullopt;
  const sg_t a = verdict.finite_xor;
  if (verdict.infinite_token) {
    const node_t from = game.tokens[*verdict.infinite_token];
    if (const auto to = least_counter_successor(game.graph, values, from, a)) return Move{*verdict.infinite_token, from, *to};
    return std::nullopt;  // unreachable: the verdict found that successor
  }
  for (std::size_t i = 0; i < game.tokens.size(); ++i) {
    const node_t from = game.tokens[i];
    const sg_t want = values.value[from] ^ a;
    if (want >= values.value[from]) continue;
    // A finite value is the mex of its successors' finite values: `want` is among them.
    if (const auto to = least_counter_successor(game.graph, values, from, want)) return Move{i, from, *to};
  }
  return std::nullopt;
}

std::optional<UserMove> loopy_user_move(const GameView& game, const LoopyValues& values,
                                        std::span<const node_t> original_ids) {
  const auto mv = loopy_winning_move(game, values);
  if (!mv) return std::nullopt;
  return user_move_of(*mv, original_ids);
}

template <class Target>
std::vector<sg_t> infinite_set(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u, std::size_t limit,
                               std::uint64_t* more) {
  std::vector<sg_t> k;
  for (node_t v : graph.successors(u))
    if (values[v] != kInfinite) k.push_back(values[v]);
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  const std::uint64_t extra = k.size() > limit ? k.size() - limit : 0;
  if (more != nullptr) *more = extra;
  k.resize(k.size() - extra);
  return k;
}

template <class Target>
std::string loopy_value_text(const BasicCsr<Target>& graph, std::span<const sg_t> values, node_t u, std::size_t limit,
                             std::uint64_t* more_out) {
  if (values[u] != kInfinite) return std::to_string(values[u]);
  std::uint64_t more = 0;
  std::string s = "inf:";
  bool first = true;
  for (sg_t x : infinite_set(graph, values, u, limit, &more)) {
    if (!first) s += ',';
    s += std::to_string(x);
    first = false;
  }
  if (more > 0) s += " (+" + std::to_string(more) + " more)";
  if (more_out != nullptr) *more_out = more;
  return s;
}

template bool has_successor_value(const CsrView&, std::span<const sg_t>, node_t, sg_t);
template bool has_successor_value(const WideCsrView&, std::span<const sg_t>, node_t, sg_t);
template Outcome node_outcome(const CsrView&, std::span<const sg_t>, node_t);
template Outcome node_outcome(const WideCsrView&, std::span<const sg_t>, node_t);
template LoopyVerdict loopy_verdict(const GameView&, const LoopyValues&);
template LoopyVerdict loopy_verdict(const WideGameView&, const LoopyValues&);
template std::optional<Move> loopy_winning_move(const GameView&, const LoopyValues&);
template std::optional<Move> loopy_winning_move(const WideGameView&, const LoopyValues&);
template std::vector<sg_t> infinite_set(const CsrView&, std::span<const sg_t>, node_t, std::size_t, std::uint64_t*);
template std::vector<sg_t> infinite_set(const WideCsrView&, std::span<const sg_t>, node_t, std::size_t, std::uint64_t*);
template std::string loopy_value_text(const CsrView&, std::span<const sg_t>, node_t, std::size_t, std::uint64_t*);
template std::string loopy_value_text(const WideCsrView&, std::span<const sg_t>, node_t, std::size_t, std::uint64_t*);

}  // namespace grundy
