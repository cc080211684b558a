// The public API's layering (grundy::layering, class Layering) and a
// single token's verdict read from values (grundy::node_verdict).
#include <algorithm>
#include <optional>

#include "grundy/api/calls.hpp"
#include "grundy/api/states.hpp"
#include "grundy/core/loopy.hpp"
#include "grundy/grundy.hpp"
#include "grundy/solve/layering.hpp"

namespace grundy {

std::size_t Layering::depth() const { return state_->layers.count(); }
std::span<const std::uint32_t> Layering::order() const { return state_->layers.order; }
std::span<const std::uint32_t> Layering::begin() const { return state_->layers.begin; }
std::uint64_t Layering::width(std::size_t layer) const {
  if (layer >= depth())
    throw Error("layer " + std::to_string(layer) + " is not a layer (0.." + std::to_string(depth()) + " exclusive)");
  return state_->layers.width(layer);
}
std::uint64_t Layering::widest() const {
  std::uint64_t widest = 0;
  for (std::size_t l = 0; l < depth(); ++l) widest = std::max<std::uint64_t>(widest, state_->layers.width(l));
  return widest;
}

Layering layering(const Graph& graph, const Options& options) {
  const Graph::State& g = graph.state();
  std::optional<PhaseTimer> own;
  PhaseTimer* const timer = api::timer_for(options, own);
  return api::translating(g.name, [&] {
    auto state = std::make_shared<Layering::State>();
    state->of = &g;
    if (timer) timer->start("layering");
    api::with_threads(options.threads, [&](const ParallelConfig& pc) {
      state->layers = api::on_view(g, [&](const auto& view) { return compute_layers(view, pc); });
      return 0;
    });
    api::end_phases(timer);
    return Layering(std::move(state));
  });
}

Verdict node_verdict(const Graph& graph, const Values& values, std::uint32_t u) {
  const Graph::State& g = graph.state();
  if (values.size() != api::node_count(g) || u >= values.size())
    throw Error(g.name + ": node " + std::to_string(u) + " has no value among these " +
                std::to_string(values.size()) + " (values of another graph, or not a node)");
  if (const auto* lv = std::get_if<LoopyValues>(&values.state().values)) {
    const Outcome o = api::on_view(g, [&](const auto& view) { return node_outcome(view, lv->value, u); });
    return o == Outcome::win ? Verdict::win : o == Outcome::lose ? Verdict::lose : Verdict::draw;
  }
  return values[u] != 0 ? Verdict::win : Verdict::lose;
}

}  // namespace grundy
