// Generalized Sprague-Grundy values of a digraph with cycles, and the
// outcome-only retrograde analysis.
//
// solve_loopy first peels the nodes that cannot reach a cycle from the sinks
// (out-degree counters over the transpose, a round per height, each node's
// value the plain mex): there gamma is the ordinary SG value. The rest go
// through Fraenkel's labelling stages i = 0, 1, ...: a stage is a retrograde
// pass in rounds, like Kahn's, in which the nodes labelled i mark their
// predecessors as having a successor labelled i, and an unlabelled node
// whose every unlabelled-or-infinite successor is so marked is labelled i
// in the next round; at the stage's end every unlabelled node with no
// successor labelled i becomes infinite. The round a node is labelled in is
// its counter. Values and counters do not depend on the thread count.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "grundy/core/loopy.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// --loopy: off (a cycle is an error), values (generalized SG values) or
/// outcome (single-token win/lose/draw alone).
enum class LoopyMode { off, values, outcome };
/// "values" or "outcome" (the option's words); "" is off. Throws std::invalid_argument.
LoopyMode parse_loopy_mode(std::string_view word);

/// gamma and its counter for every node. Never throws on a cycle.
template <class Target>
LoopyValues solve_loopy(const BasicCsr<Target>& graph, const ParallelConfig& pc, PhaseTimer* timer = nullptr,
                        LoopyStats* stats = nullptr);

/// Win, lose or draw for a single token on each node, by the classic
/// O(N + M) retrograde analysis (sinks lose; a node with a losing
/// successor wins; one whose successors all win loses; the rest draw), and
/// the round each lost node was decided in.
struct OutcomeTable {
  Array<Outcome> of;
  Array<std::uint32_t> round;  ///< meaningful for lost nodes
};
template <class Target>
OutcomeTable solve_outcomes(const BasicCsr<Target>& graph, const ParallelConfig& pc, PhaseTimer* timer = nullptr);

/// A winning move of a single token on a won node: to its lost successor
/// decided in the earliest round, so that the loser's replies reach ever
/// earlier rounds and play ends. Empty for a node that is not won.
template <class Target>
std::optional<node_t> outcome_move(const BasicCsr<Target>& graph, const OutcomeTable& outcomes, node_t from);

/// --loopy=outcome decides a single token: a game of several is an
/// InputError naming `name` (checked before any work).
void require_single_token(const GameView& game, const std::string& name);
/// --loopy=outcome's answer for a game that passed require_single_token:
/// the token's outcome (no token: lost) and, with `with_move`, outcome_move
/// from it in the user's ids (`original_ids` as a layered file's).
struct SingleTokenAnswer {
  Outcome outcome = Outcome::lose;
  std::optional<UserMove> move;
};
SingleTokenAnswer single_token_answer(const GameView& game, const OutcomeTable& outcomes, bool with_move,
                                      std::span<const node_t> original_ids);

/// What solving with cycles adds to memory beyond the graph: the transpose
/// and the per-node arrays (values, counters, lists).
std::uint64_t loopy_memory_bytes(std::uint64_t n, std::uint64_t m);

/// The first node (lowest id) where Fraenkel's conditions fail:
/// (A) a finite value is the mex of its successors' finite values;
/// (B) a successor of a finite node u with a larger or infinite value has a
///     successor of u's value with a smaller counter than u's;
/// (C) an infinite node has an infinite successor none of whose successors
///     has the value mex(finite values of u's successors).
/// The message names the condition, the node as the user numbers it
/// (`user_id`), and what was found.
struct LoopyMismatch {
  node_t node = 0;
  std::string what;  ///< e.g. "condition (A): node 5 has value 2, the mex of its successors is 1"
};
template <class Target>
std::optional<LoopyMismatch> check_loopy_conditions(const BasicCsr<Target>& graph, const LoopyValues& values,
                                                    const ParallelConfig& pc,
                                                    const std::function<std::uint64_t(node_t)>& user_id);

/// --verify for games with cycles: each engine checked by the other, and
/// the values by Fraenkel's conditions at every node. Returns "" when all
/// holds, else one line saying what failed where ("verification failed: ...").
template <class Target>
std::string verify_loopy(const BasicCsr<Target>& graph, const LoopyValues& values, std::span<const Outcome> outcomes,
                         const ParallelConfig& pc, const std::function<std::uint64_t(node_t)>& user_id);
/// What verify_loopy checked, said on success.
std::string describe_loopy_verified(std::uint64_t n, std::uint64_t m);

/// The first node whose single-token outcome in `outcomes` differs from the
/// one its value gives.
template <class Target>
std::optional<node_t> compare_outcomes(const BasicCsr<Target>& graph, const LoopyValues& values,
                                       std::span<const Outcome> outcomes, const ParallelConfig& pc);

}  // namespace grundy
