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

void write_generated(const GenSpec& s, const std::string& path, bool layered, std::uint64_t instances,
                     const ParallelConfig& pc, const std::function<void(std::uint64_t)>& progress) {
  check_spec(s);
  const bool binary = is_gcsr_path(path);
  if (layered && !binary) throw std::invalid_argument("--layered needs a .gcsr output");
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
  OutputFile file(path);
  GenSpec one = s;
  for (std::uint64_t i = 0; i < instances; ++i, ++one.seed) {
    write_classic(generate(one, pc).view(), file);
    if (progress) progress((i + 1) * m);
  }
  file.commit();
}

}  // namespace grundy
