// One way to turn input bytes into a game: classic text, an edge list or
// .gcsr. A .gcsr is told by content (its magic); an edge list, which no
// content tells from classic text, by its name (.el), the same for every
// command; compressed input is refused with the command that unpacks it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

enum class InputFormat { classic, edge_list, gcsr };

/// What `bytes` (named `name`, "<stdin>" for a stream) hold. Throws
/// InputError for gzip, zstd, xz and bzip2 data, naming the unpacker.
InputFormat input_format(std::string_view bytes, std::string_view name);

/// A game as loaded, viewed where it lies (a mapped .gcsr, or parsed arrays).
struct GameInput {
  GameView view;        ///< ids as stored (renumbered in a layered .gcsr)
  StoredLayers layers;  ///< non-empty for a layered .gcsr
  /// Non-empty for a layered .gcsr: stored id -> the user's id (0-based).
  std::span<const node_t> original_ids;
  const char* format = "text";  ///< "text", "el" or "gcsr"

  /// The id the user knows for stored id u (0-based).
  node_t user_id(node_t u) const { return original_ids.empty() ? u : original_ids[u]; }
};

/// A game with the arrays of a parsed text in it (view points into owned).
struct LoadedGame : GameInput {
  OwnedGame owned;
};

/// Arrays reused from game to game by a caller that loads many (a batch
/// worker): a parsed text's game and the parser's scratch.
struct LoadScratch {
  OwnedGame game;
  UnzeroedArray<node_t> ids;
};

/// Parses or validates `bytes`; views into `bytes` stay valid while it does.
/// `self_loops`: a self-loop is a move (--loopy), not an error.
LoadedGame load_game(std::string_view bytes, const std::string& name, const ParallelConfig& pc,
                     PhaseTimer* timer = nullptr, bool self_loops = false);

/// The same for one instance of a stream (text from options.start, named
/// and numbered by `options`), parsed into `scratch`, whose arrays the view
/// then points into.
GameInput load_game(std::string_view bytes, const ParseOptions& options, const ParallelConfig& pc,
                    LoadScratch& scratch);

}  // namespace grundy
