#include "grundy/formats/game_loader.hpp"

#include "grundy/formats/classic_text.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/io/mapped_file.hpp"

namespace grundy {

namespace {

void view_gcsr(std::string_view bytes, const std::string& name, const ParallelConfig& pc, PhaseTimer* timer,
               GameInput& g) {
  const GcsrGame file = read_gcsr(bytes, name, pc, timer);
  g.view = file.game;
  g.layers = file.layers;
  g.original_ids = file.original_ids;
  g.format = "gcsr";
}

}  // namespace

InputFormat input_format(std::string_view bytes, std::string_view name) {
  if (const std::string packed = compressed_input_error(bytes, name); !packed.empty()) throw InputError(packed);
  if (looks_like_gcsr(bytes)) return InputFormat::gcsr;
  return is_edge_list_path(name) ? InputFormat::edge_list : InputFormat::classic;
}

LoadedGame load_game(std::string_view bytes, const std::string& name, const ParallelConfig& pc, PhaseTimer* timer,
                     bool self_loops) {
  LoadedGame g;
  const InputFormat format = input_format(bytes, name);
  if (format == InputFormat::gcsr) {
    view_gcsr(bytes, name, pc, timer, g);
  } else if (format == InputFormat::edge_list) {
    g.owned = parse_edge_list(bytes, {.source = name, .threads = pc.threads, .timer = timer, .self_loops = self_loops});
    g.view = g.owned.view();
    g.format = "el";
  } else {
    g.owned = parse_classic(bytes, {.source = name, .threads = pc.threads, .timer = timer, .self_loops = self_loops});
    g.view = g.owned.view();
  }
  return g;
}

GameInput load_game(std::string_view bytes, const ParseOptions& options, const ParallelConfig& pc,
                    LoadScratch& scratch) {
  GameInput g;
  const InputFormat format = input_format(bytes.substr(options.start), options.source);
  if (format == InputFormat::gcsr) {
    view_gcsr(bytes, std::string(options.source), pc, options.timer, g);
  } else if (format == InputFormat::edge_list) {
    scratch.game = parse_edge_list(bytes.substr(options.start),
                                   {.source = options.source,
                                    .threads = pc.threads,
                                    .timer = options.timer,
                                    .self_loops = options.self_loops});
    g.view = scratch.game.view();
    g.format = "el";
  } else {
    parse_classic(bytes, options, scratch.game, scratch.ids);
    g.view = scratch.game.view();
  }
  return g;
}

}  // namespace grundy
