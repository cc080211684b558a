#include "grundy/jobs/generated_file.hpp"

#include <stdexcept>

#include "grundy/core/cycle.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/solve/renumber.hpp"

namespace grundy {

std::uint64_t write_layered_gcsr(const std::string& path, const GameView& game, const ParallelConfig& pc,
                                 const std::string& source) {
  Layers layers = naming_cycles(source, [&] { return compute_layers(game.graph, pc); });
  GcsrWriter w(path, game.graph.n, game.graph.m, game.tokens.size(), layers.count());
  renumber_by_layers(game, layers, pc, {w.offsets(), w.targets(), w.tokens(), w.layer_begin(), w.original_ids()});
  w.commit();
  return layers.count();
}

std::uint64_t planned_output_bytes(const GenSpec& s, const std::string& path, bool layered, std::uint64_t instances) {
  const double n = static_cast<double>(s.nodes), m = static_cast<double>(generated_edges(s)),
               k = static_cast<double>(s.tokens);
  double bytes = 0;
  if (is_gcsr_path(path)) {
    bytes = 4096 + 8 * (n + 1) + 4 * m + 4 * k + (layered ? 4 * n + 4 * (n + 1) : 0);
  } else {
    const double digits = static_cast<double>(std::to_string(s.nodes).size());
    bytes = static_cast<double>(instances) * (3 * 21 + m * (2 * digits + 2) + k * (digits + 1));
  }
  return bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

void write_generated(const GenSpec& s, const std::string& path, bool layered, std::uint64_t instances,
                     const ParallelConfig& pc, const std::function<void(std::uint64_t)>& progress) {
  check_spec(s);
  const bool binary = is_gcsr_path(path);
  if (layered && !binary) throw std::invalid_argument("--layered needs a .gcsr output");
  if (layered && has_cycles(s.shape))
    throw std::invalid_argument("--layered needs a DAG, and --shape " + std::string(shape_name(s.shape)) +
                                " makes cycles");
  if (instances > 1 && binary) throw std::invalid_argument("--instances needs a text output (a stream)");
  const std::uint64_t m = generated_edges(s);
  // What generating takes besides the output: per-node arrays, and for text
  // and layered output the whole graph in memory (and layering's arrays).
  const double n = static_cast<double>(s.nodes) + 1;
  const double planned = binary && !layered ? 16 * n
                                            : 16 * n + 8.0 * static_cast<double>(m) +
                                                  4.0 * static_cast<double>(s.tokens) + (layered ? 24 * n : 0);
  require_memory(planned >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(planned), path,
                 "generating " + std::to_string(s.nodes) + " nodes and " + std::to_string(m) + " edges");
  if (binary && !layered) {
    // Straight into the mapped file: no edge list, no second copy.
    GcsrWriter w(path, static_cast<node_t>(s.nodes), m, s.tokens);
    generate_into(s, {w.offsets(), w.targets(), w.tokens()}, pc, progress);
    w.commit();
    return;
  }
  if (binary) {
    write_layered_gcsr(path, generate(s, pc).view(), pc, path);
    return;
  }
  const bool edge_list = is_edge_list_path(path);
  if (instances > 1 && edge_list)
    throw std::invalid_argument("--instances needs classic text (an edge list is one graph)");
  OutputFile file(path);
  GenSpec one = s;
  for (std::uint64_t i = 0; i < instances; ++i, ++one.seed) {
    const auto written = [&](std::uint64_t edges) {
      if (progress) progress(i * m + edges);
    };
    const OwnedGame game = generate(one, pc);
    if (edge_list)
      write_edge_list(game.view(), file, written);
    else
      write_classic(game.view(), file, written);
    if (progress) progress((i + 1) * m);
  }
  file.commit();
}

}  // namespace grundy
