// The public API (grundy/grundy.hpp) over the engine: views checked before
// use, the engine's own arrays handed on, every internal error turned into
// grundy::Error with the CLI's message.
#include "grundy/grundy.hpp"

#include "grundy/api/calls.hpp"
#include "grundy/api/states.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <variant>

#include "grundy/core/cycle.hpp"
#include "grundy/core/game.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/core/loopy.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/jobs/batch.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy {

namespace {

using api::algo_of;
using api::edge_count;
using api::node_count;
using api::on_view;
using api::end_phases;
using api::timer_for;
using api::translating;
using api::with_threads;

// The caller's CSR arrays, checked as read_gcsr checks a file's: offsets
// from 0, never decreasing, ending at m; every target a node.
template <class Offset, class Target>
std::shared_ptr<Graph::State> checked_view(std::span<const Offset> offsets, std::span<const Target> targets,
                                           std::string name) {
  if (offsets.empty()) throw Error(name + ": offsets is empty; it needs n + 1 entries (0 for no node)");
  if (offsets.size() - 1 > kMaxNodes)
    throw Error(name + ": " + std::to_string(offsets.size() - 1) + " nodes is more than " + std::to_string(kMaxNodes));
  auto s = std::make_shared<Graph::State>();
  s->name = std::move(name);
  const node_t n = static_cast<node_t>(offsets.size() - 1);
  const auto offset_at = [&](std::size_t i) { return static_cast<std::int64_t>(offsets[i]); };
  if (offsets[0] != 0) throw Error(s->name + ": offsets[0] is " + std::to_string(offset_at(0)) + ", not 0");
  if (static_cast<std::uint64_t>(offset_at(n)) != targets.size())
    throw Error(s->name + ": offsets[" + std::to_string(n) + "] is " + std::to_string(offset_at(n)) + ", but there are " +
                std::to_string(targets.size()) + " targets");
  const ParallelConfig pc{std::max(1u, std::thread::hardware_concurrency())};
  std::atomic<std::size_t> bad_offset{SIZE_MAX}, bad_target{SIZE_MAX};
  for_range(pc, 1, std::size_t{n} + 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      if (offsets[i] < offsets[i - 1]) return lower_to(bad_offset, i);
  });
  if (bad_offset != SIZE_MAX) {
    const std::size_t i = bad_offset;
    throw Error(s->name + ": offsets[" + std::to_string(i) + "] = " + std::to_string(offset_at(i)) +
                " is less than offsets[" + std::to_string(i - 1) + "] = " + std::to_string(offset_at(i - 1)));
  }
  for_range(pc, 0, targets.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      if (static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<Target>>(targets[i])) >= n)
        return lower_to(bad_target, i);
  });
  if (bad_target != SIZE_MAX) {
    const std::size_t i = bad_target;
    throw Error(s->name + ": targets[" + std::to_string(i) + "] = " +
                std::to_string(static_cast<std::int64_t>(targets[i])) + " is not a node (ids 0.." +
                std::to_string(static_cast<std::int64_t>(n) - 1) + ")");
  }
  const edge_t* offs = nullptr;
  if constexpr (sizeof(Offset) == sizeof(edge_t)) {
    offs = reinterpret_cast<const edge_t*>(offsets.data());
  } else {
    s->widened.assign(offsets.begin(), offsets.end());
    offs = s->widened.data();
  }
  using Id = std::conditional_t<sizeof(Target) == sizeof(node_t), node_t, std::uint64_t>;
  s->view = BasicCsr<Id>{n, targets.size(), offs, reinterpret_cast<const Id*>(targets.data())};
  return s;
}

std::shared_ptr<Graph::State> owning(std::string name, OwnedGame game) {
  auto s = std::make_shared<Graph::State>();
  s->name = std::move(name);
  s->owned = std::move(game);
  s->view = s->owned.graph();
  s->tokens = s->owned.tokens;
  return s;
}

Verdict verdict_of(Outcome o) {
  return o == Outcome::win ? Verdict::win : o == Outcome::lose ? Verdict::lose : Verdict::draw;
}

}  // namespace

Graph Graph::view(std::span<const std::uint64_t> o, std::span<const std::uint32_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::int64_t> o, std::span<const std::int32_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::uint32_t> o, std::span<const std::uint32_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::int32_t> o, std::span<const std::int32_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::uint64_t> o, std::span<const std::uint64_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::int64_t> o, std::span<const std::int64_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::uint32_t> o, std::span<const std::uint64_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}
Graph Graph::view(std::span<const std::int32_t> o, std::span<const std::int64_t> t, std::string name) {
  return Graph(checked_view(o, t, std::move(name)));
}

Graph Graph::from_edges(std::uint32_t n, std::span<const std::pair<std::uint32_t, std::uint32_t>> edges,
                        std::vector<std::uint32_t> tokens, bool self_loops) {
  std::vector<node_t> pairs;
  pairs.reserve(2 * edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const auto [u, v] = edges[e];
    if (u >= n || v >= n)
      throw Error("<edges>: edge " + std::to_string(e) + " (" + std::to_string(u) + ", " + std::to_string(v) +
                  ") names a node outside 0.." + std::to_string(static_cast<std::int64_t>(n) - 1));
    pairs.push_back(u);
    pairs.push_back(v);
  }
  for (std::size_t t = 0; t < tokens.size(); ++t)
    if (tokens[t] >= n) throw Error("<edges>: token " + std::to_string(t) + " is on " + std::to_string(tokens[t]) + ", not a node");
  OwnedGame game;
  if (const auto loop = build_csr(n, pairs, game); loop && !self_loops)
    throw Error("<edges>: edge " + std::to_string(*loop) + " is a self-loop: cycle: " +
                std::to_string(pairs[2 * *loop] + 1) + " -> " + std::to_string(pairs[2 * *loop] + 1) + kLoopyHint);
  game.tokens.assign(tokens.begin(), tokens.end());
  return Graph(owning("<edges>", std::move(game)));
}

Graph Graph::load(const std::string& path, bool self_loops) { return load(path, Options{.loopy = self_loops}); }

Graph Graph::load(const std::string& path, const Options& options) { return load(path, options, LoadSettings{}); }

Graph Graph::generate(const std::string& shape, std::uint64_t nodes, std::uint64_t edges, std::uint64_t tokens,
                      std::uint64_t seed, std::uint64_t layers, unsigned threads, std::string name) {
  return translating("<gen>", [&] {
    const GenSpec spec{parse_shape(shape), nodes, edges, tokens, seed, layers};
    OwnedGame game = with_threads(threads, [&](const ParallelConfig& pc) { return grundy::generate(spec, pc); });
    return Graph(owning(name.empty() ? "gen:" + shape : std::move(name), std::move(game)));
  });
}

std::uint32_t Graph::nodes() const { return node_count(*state_); }
std::uint64_t Graph::edges() const { return edge_count(*state_); }
std::span<const std::uint64_t> Graph::offsets() const {
  return {on_view(*state_, [](const auto& v) { return v.offsets; }), std::size_t{nodes()} + 1};
}
unsigned Graph::id_bits() const { return std::holds_alternative<WideCsrView>(state_->view) ? 64 : 32; }
std::span<const std::uint32_t> Graph::targets() const {
  const auto* v = std::get_if<CsrView>(&state_->view);
  if (v == nullptr) throw Error(state_->name + ": its ids are 64-bit; read them with wide_targets()");
  return {v->targets, static_cast<std::size_t>(v->m)};
}
std::span<const std::uint64_t> Graph::wide_targets() const {
  const auto* v = std::get_if<WideCsrView>(&state_->view);
  if (v == nullptr) throw Error(state_->name + ": its ids are 32-bit; read them with targets()");
  return {v->targets, static_cast<std::size_t>(v->m)};
}
std::span<const std::uint32_t> Graph::tokens() const { return state_->tokens; }
std::span<const std::uint32_t> Graph::original_ids() const { return state_->original_ids; }
const std::string& Graph::name() const { return state_->name; }

std::size_t Values::size() const {
  return std::visit([](const auto& v) { return v.size(); }, state_->values);
}
std::uint32_t Values::operator[](std::size_t u) const {
  if (const auto* sg = std::get_if<SgValues>(&state_->values)) return (*sg)[static_cast<node_t>(u)];
  return std::get<LoopyValues>(state_->values).value[u];
}
unsigned Values::width() const {
  if (const auto* sg = std::get_if<SgValues>(&state_->values))
    return sg->visit([](auto v) { return static_cast<unsigned>(8 * sizeof(v[0])); });
  return 32;
}
const void* Values::data() const {
  if (const auto* sg = std::get_if<SgValues>(&state_->values))
    return sg->visit([](auto v) { return static_cast<const void*>(v.data()); });
  return std::get<LoopyValues>(state_->values).value.data();
}
std::vector<std::uint32_t> Values::to_vector() const {
  std::vector<std::uint32_t> out(size());
  for (std::size_t u = 0; u < out.size(); ++u) out[u] = (*this)[u];
  return out;
}

namespace {

void check_same_graph(const Graph::State& g, const Values& values) {
  if (values.size() != node_count(g))
    throw Error(g.name + ": these values are another graph's (" + std::to_string(values.size()) + " nodes, not " +
                std::to_string(node_count(g)) + ")");
}

// As the CLI refuses before it allocates: the graph and what solving (and
// verifying) it adds, against the memory budget (GRUNDY_MEMORY_LIMIT too).
void require_solve_memory(const Graph::State& g, const Options& o) {
  const std::uint64_t bytes =
      on_view(g, [&](const auto& v) { return planned_solve_bytes(v, algo_of(o.engine), o.loopy, o.verify); });
  require_memory(bytes, g.name,
                 std::to_string(node_count(g)) + " nodes and " + std::to_string(edge_count(g)) + " edges" +
                     (o.loopy ? " with loopy" : "") + (o.verify ? (o.loopy ? " and verify" : " with verify") : ""));
}

// Checks the values on pc's threads (loopy ones against `outcomes`, else
// against outcomes of its own): what was checked, or an Error naming the
// first wrong node as the user numbers it.
std::string checked(const Graph::State& g, const Values::State& values, const ParallelConfig& pc, PhaseTimer* timer,
                    const OutcomeTable* outcomes = nullptr) {
  const auto user = [&](node_t u) { return user_number(g.original_ids, u); };
  return on_view(g, [&](const auto& view) {
    if (const auto* lv = std::get_if<LoopyValues>(&values.values)) {
      if (timer) timer->start("verify");
      const std::string why = verify_loopy(view, *lv, outcomes ? outcomes->of : solve_outcomes(view, pc).of, pc, user);
      end_phases(timer);
      if (!why.empty()) throw Error(g.name + ": " + why);
      return describe_loopy_verified(view.n, view.m);
    }
    const auto bad = verify_sg(view, std::get<SgValues>(values.values), pc, timer);
    end_phases(timer);
    if (bad)
      throw Error(g.name + ": " + describe_mismatch(*bad, user(bad->node)));
    return describe_verified(view.n, view.m);
  });
}

}  // namespace

namespace {

// A call that computes values: the memory check first, `solve(view, pc,
// timer, values)` on the options' threads, the phases ended, and with
// Options::verify the values checked before they are handed on.
template <class Solve>
Values computed(const Graph::State& g, const Options& options, Solve&& solve) {
  std::optional<PhaseTimer> own;
  PhaseTimer* const timer = timer_for(options, own);
  return translating(g.name, [&] {
    require_solve_memory(g, options);
    auto state = std::make_shared<Values::State>();
    with_threads(options.threads, [&](const ParallelConfig& pc) {
      on_view(g, [&](const auto& view) { solve(view, pc, timer, state->values); });
      end_phases(timer);
      if (options.verify) checked(g, *state, pc, timer);
      return 0;
    });
    return Values(std::move(state));
  });
}

}  // namespace

Values sg(const Graph& graph, const Options& options) {
  const Graph::State& g = graph.state();
  return computed(g, options, [&](const auto& view, const ParallelConfig& pc, PhaseTimer* timer, auto& values) {
    if (options.loopy) {
      values = solve_loopy(view, pc, timer, timer != nullptr ? &timer->loopy : nullptr);
    } else {
      values = solve_sg(view, algo_of(options.engine), pc, timer, g.loaded.layers);
    }
  });
}

Values sg(const Graph& graph, const Layering& layers, const Options& options) {
  const Graph::State& g = graph.state();
  if (options.loopy || (options.engine != Engine::automatic && options.engine != Engine::level))
    throw ArgumentError(g.name + ": values over given layers are the level engine's, for a DAG");
  if (layers.state().of != &g) throw Error(g.name + ": these layers are another graph's (layering(graph) lays out this one)");
  const Layers& given = layers.state().layers;
  return computed(g, options, [&](const auto& view, const ParallelConfig& pc, PhaseTimer* timer, auto& values) {
    if (timer) timer->start("mex");
    SgValues sg(view.n, view.m);
    level_mex(view, LayerView{given.order.data(), given.begin, {}}, pc, sg);
    values = std::move(sg);
  });
}

std::string verify(const Graph& graph, const Values& values, const Options& options) {
  const Graph::State& g = graph.state();
  check_same_graph(g, values);
  std::optional<PhaseTimer> own;
  PhaseTimer* const timer = timer_for(options, own);
  return translating(g.name, [&] {
    return with_threads(options.threads, [&](const ParallelConfig& pc) { return checked(g, values.state(), pc, timer); });
  });
}

std::string verify_mex_rule(const Graph& graph, const Values& values, const Options& options) {
  const Graph::State& g = graph.state();
  check_same_graph(g, values);
  const auto* sg = std::get_if<SgValues>(&values.state().values);
  if (sg == nullptr) throw Error(g.name + ": the mex rule checks a DAG's values; loopy values are checked by verify");
  return translating(g.name, [&] {
    const auto bad = with_threads(options.threads, [&](const ParallelConfig& pc) {
      return on_view(g, [&](const auto& view) { return check_mex_rule(view, *sg, pc); });
    });
    if (bad) throw Error(g.name + ": " + describe_mismatch(*bad, user_number(g.original_ids, bad->node)));
    return "verified: mex rule, " + std::to_string(node_count(g)) + " nodes, " + std::to_string(edge_count(g)) + " edges";
  });
}

std::string verify(const Graph& graph, const Values& values, const Values& reference) {
  const Graph::State& g = graph.state();
  check_same_graph(g, values);
  check_same_graph(g, reference);
  const auto& got = values.state().values;
  const auto& want = reference.state().values;
  if (got.index() != want.index()) throw Error(g.name + ": loopy values and SG values cannot be compared");
  const auto user = [&](node_t u) { return std::to_string(user_number(g.original_ids, u)); };
  if (const auto* sg = std::get_if<SgValues>(&got)) {
    if (const auto bad = compare_sg(*sg, std::get<SgValues>(want)))
      throw Error(g.name + ": " + describe_mismatch(*bad, user_number(g.original_ids, bad->node)));
  } else {
    const LoopyValues& a = std::get<LoopyValues>(got);
    const LoopyValues& b = std::get<LoopyValues>(want);
    for (node_t u = 0; u < a.size(); ++u)
      if (a.value[u] != b.value[u])
        on_view(g, [&](const auto& view) {
          throw Error(g.name + ": verification failed (reference values): node " + user(u) + " has value " +
                      loopy_value_text(view, a.value, u, 8) + ", expected " + loopy_value_text(view, b.value, u, 8));
        });
  }
  return "verified: reference values, " + std::to_string(node_count(g)) + " nodes";
}

std::size_t Outcomes::size() const { return state_->table.of.size(); }
Verdict Outcomes::operator[](std::size_t u) const { return verdict_of(state_->table.of[u]); }

Outcomes outcomes(const Graph& graph, const Options& options) {
  const Graph::State& g = graph.state();
  std::optional<PhaseTimer> own;
  PhaseTimer* const timer = timer_for(options, own);
  Options loopy = options;
  loopy.loopy = true;
  return translating(g.name, [&] {
    require_solve_memory(g, loopy);
    auto state = std::make_shared<Outcomes::State>();
    with_threads(options.threads, [&](const ParallelConfig& pc) {
      on_view(g, [&](const auto& view) { state->table = solve_outcomes(view, pc, timer); });
      end_phases(timer);
      return 0;
    });
    return Outcomes(std::move(state));
  });
}

std::string verify(const Graph& graph, const Values& values, const Outcomes& outcomes, const Options& options) {
  const Graph::State& g = graph.state();
  check_same_graph(g, values);
  if (outcomes.size() != node_count(g) || !std::holds_alternative<LoopyValues>(values.state().values))
    throw Error(g.name + ": verify takes the loopy values and the outcomes of this graph");
  std::optional<PhaseTimer> own;
  PhaseTimer* const timer = timer_for(options, own);
  return translating(g.name, [&] {
    return with_threads(options.threads, [&](const ParallelConfig& pc) {
      return checked(g, values.state(), pc, timer, &outcomes.state().table);
    });
  });
}

std::string verify(const Graph& graph, const Outcomes& outcomes, const Outcomes& reference) {
  const Graph::State& g = graph.state();
  const Array<Outcome>& got = outcomes.state().table.of;
  const Array<Outcome>& want = reference.state().table.of;
  if (got.size() != node_count(g) || want.size() != node_count(g))
    throw Error(g.name + ": these outcomes are another graph's");
  for (node_t u = 0; u < got.size(); ++u)
    if (got[u] != want[u])
      throw Error(g.name + ": verification failed (reference outcomes): node " +
                  std::to_string(user_number(g.original_ids, u)) + " is " + outcome_word(got[u]) + ", expected " +
                  outcome_word(want[u]));
  return "verified: reference outcomes, " + std::to_string(node_count(g)) + " nodes";
}

namespace {

void check_tokens(const Graph::State& g, std::span<const std::uint32_t> tokens) {
  const node_t n = node_count(g);
  for (std::size_t t = 0; t < tokens.size(); ++t)
    if (tokens[t] >= n)
      throw Error(g.name + ": token " + std::to_string(t) + " is on " + std::to_string(tokens[t]) +
                  ", not a node (ids 0.." + std::to_string(static_cast<std::int64_t>(n) - 1) + ")");
}

}  // namespace

Answer solve(const Graph& graph, const Values& values, std::span<const std::uint32_t> tokens) {
  const Graph::State& g = graph.state();
  check_tokens(g, tokens);
  check_same_graph(g, values);
  Answer a;
  std::optional<Move> move;
  on_view(g, [&]<class Target>(const BasicCsr<Target>& view) {
    const BasicGame<Target> game{view, tokens};
    if (const auto* lv = std::get_if<LoopyValues>(&values.state().values)) {
      const LoopyVerdict v = loopy_verdict(game, *lv);
      a.verdict = verdict_of(v.outcome);
      a.nim_sum = v.finite_xor;
      move = loopy_winning_move(game, *lv);
    } else {
      const SgValues& sg = std::get<SgValues>(values.state().values);
      a.nim_sum = nim_sum(sg, tokens);
      a.verdict = a.nim_sum != 0 ? Verdict::win : Verdict::lose;
      move = winning_move(game, sg);
    }
  });
  if (move) a.move = TokenMove{move->token, move->from, move->to};
  return a;
}

Answer solve(const Graph& graph, const Outcomes& outcomes, std::uint32_t token) {
  const Graph::State& g = graph.state();
  check_tokens(g, std::span<const std::uint32_t>(&token, 1));
  if (outcomes.size() != node_count(g)) throw Error(g.name + ": these outcomes are another graph's");
  const OutcomeTable& table = outcomes.state().table;
  Answer a;
  a.verdict = verdict_of(table.of[token]);
  const std::optional<node_t> to = on_view(g, [&](const auto& view) { return outcome_move(view, table, token); });
  if (to) a.move = TokenMove{0, token, *to};
  return a;
}

Answer solve(const Graph& graph, std::span<const std::uint32_t> tokens, const Options& options) {
  check_tokens(graph.state(), tokens);  // before the work
  return solve(graph, sg(graph, options), tokens);
}

const char* verdict_word(Verdict v) {
  switch (v) {
    case Verdict::win: return "win";
    case Verdict::lose: return "lose";
    case Verdict::draw: return "draw";
  }
  return "?";
}

const char* version() { return "0.1.0"; }

}  // namespace grundy
