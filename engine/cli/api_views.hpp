// The public API's handles seen as the engine's own views, for what the
// CLI adds around the API: its output writers, the bench's floor pass and
// the profile's facts, and the --plant-error testing hook. No copies.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <variant>

#include "grundy/api/states.hpp"
#include "grundy/core/csr_graph.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/grundy.hpp"

namespace grundy::cli {

// The engine's values, viewed as the output writers take them.
inline SgSpan span_of(const Values& v) {
  if (v.width() == 16) return std::span<const std::uint16_t>(static_cast<const std::uint16_t*>(v.data()), v.size());
  return std::span<const std::uint32_t>(static_cast<const std::uint32_t*>(v.data()), v.size());
}

// The graph's CSR and tokens (32-bit ids: what the CLI loads).
inline GameView game_view(const Graph& g) {
  return {CsrView{g.nodes(), g.edges(), g.offsets().data(), g.targets().data()}, g.tokens()};
}

// --plant-error (a testing hook, for the checks to catch): flips one value
// in the array the engine made for this process.
inline void plant_error(const Values& v, std::int64_t node) {
  if (node < 0 || static_cast<std::uint64_t>(node) >= v.size()) return;
  std::visit([&](auto s) { const_cast<std::remove_const_t<typename decltype(s)::element_type>&>(s[node]) ^= 1; },
             span_of(v));
}

// The same for an outcome: a draw becomes a win, anything else a draw.
inline void plant_error(const Outcomes& o, std::int64_t node) {
  if (node < 0 || static_cast<std::uint64_t>(node) >= o.size()) return;
  Outcome& x = const_cast<Outcome&>(o.state().table.of[static_cast<std::size_t>(node)]);
  x = x == Outcome::draw ? Outcome::win : Outcome::draw;
}

}  // namespace grundy::cli
