#include "grundy/formats/game_loader.hpp"

#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/gcsr.hpp"

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

LoadedGame load_game(std::string_view bytes, const std::string& name, const ParallelConfig& pc, PhaseTimer* timer) {
  LoadedGame g;
  if (looks_like_gcsr(bytes)) {
    view_gcsr(bytes, name, pc, timer, g);
  } else {
    g.owned = parse_classic(bytes, {name, pc.threads, timer});
    g.view = g.owned.view();
  }
  return g;
}

GameInput load_game(std::string_view bytes, const ParseOptions& options, const ParallelConfig& pc,
                    LoadScratch& scratch) {
  GameInput g;
  if (looks_like_gcsr(bytes)) {
    view_gcsr(bytes, std::string(options.source), pc, options.timer, g);
  } else {
    parse_classic(bytes, options, scratch.game, scratch.ids);
    g.view = scratch.game.view();
  }
  return g;
}

}  // namespace grundy
