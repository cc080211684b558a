// One way to turn input bytes into a game: classic text or .gcsr, told apart
// by content (the .gcsr magic), never by file name.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/core/phase_timer.hpp"

namespace grundy {

struct LoadedGame {
  GameView view;        ///< ids as stored (renumbered in a layered .gcsr)
  StoredLayers layers;  ///< non-empty for a layered .gcsr
  /// Non-empty for a layered .gcsr: stored id -> the user's id (0-based).
  std::span<const node_t> original_ids;
  const char* format = "text";  ///< "text" or "gcsr"
  OwnedGame owned;              ///< the arrays of a parsed text (view points here)

  /// The id the user knows for stored id u (0-based).
  node_t user_id(node_t u) const { return original_ids.empty() ? u : original_ids[u]; }
};

/// Parses or validates `bytes`; views into `bytes` stay valid while it does.
LoadedGame load_game(std::string_view bytes, const std::string& name, const ParallelConfig& pc,
                     PhaseTimer* timer = nullptr);

}  // namespace grundy
