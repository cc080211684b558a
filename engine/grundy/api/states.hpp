// What the public API's handles hold (Graph, Values, Outcomes, Layering):
// the engine's own arrays, shared by every copy of a handle. Internal to
// the API's sources.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <variant>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/loopy.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/grundy.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/loopy_solver.hpp"

namespace grundy {

struct Graph::State {
  std::string name;
  std::variant<CsrView, WideCsrView> view;  // the ids' width, as the caller's arrays have it
  std::span<const node_t> tokens;
  std::span<const node_t> original_ids;
  // What the view points into, when the Graph owns it.
  std::unique_ptr<MappedFile> file;
  LoadedGame loaded;
  OwnedGame owned;
  Array<edge_t> widened;
};

struct Values::State {
  std::variant<SgValues, LoopyValues> values;
};

struct Outcomes::State {
  OutcomeTable table;
};

struct Layering::State {
  Layers layers;
  const Graph::State* of = nullptr;  // the graph laid out (compared, never read)
};

namespace api {

// f(view) on the graph as its ids' width has it.
template <class F>
decltype(auto) on_view(const Graph::State& g, F&& f) {
  return std::visit(std::forward<F>(f), g.view);
}

// The node and edge counts, whatever the width.
inline node_t node_count(const Graph::State& g) {
  return on_view(g, [](const auto& v) { return v.n; });
}
inline edge_t edge_count(const Graph::State& g) {
  return on_view(g, [](const auto& v) { return v.m; });
}

}  // namespace api
}  // namespace grundy
