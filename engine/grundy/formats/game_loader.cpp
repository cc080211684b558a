#include "grundy/formats/game_loader.hpp"

#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/gcsr.hpp"

namespace grundy {

LoadedGame load_game(std::string_view bytes, const std::string& name, const ParallelConfig& pc, PhaseTimer* timer) {
  LoadedGame g;
  if (looks_like_gcsr(bytes)) {
    const GcsrGame file = read_gcsr(bytes, name, pc, timer);
    g.view = file.game;
    g.layers = file.layers;
    g.original_ids = file.original_ids;
    g.format = "gcsr";
    return g;
  }
  g.owned = parse_classic(bytes, {name, pc.threads, timer});
  g.view = g.owned.view();
  return g;
}

}  // namespace grundy
