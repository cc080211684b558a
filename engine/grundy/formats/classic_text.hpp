// The classic text format: "N M K", M edges "u v", K token ids, 1-based,
// separated by any ASCII whitespace (space, tab, CR, LF, VT, FF).
//
// The parser is strict: every deviation is an InputError naming the line and
// the offending value. It never allocates from the header's promise alone:
// before any array is sized, the counts are checked against the bytes that
// follow the header (each number needs at least one digit and a separator).
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"

namespace grundy {

struct ParseOptions {
  std::string_view source = "<input>";  ///< name used in error messages
  unsigned threads = 1;                 ///< >1 lets large inputs be parsed in parallel chunks
  PhaseTimer* timer = nullptr;          ///< if set, records "parse" and "build CSR"
  /// Where the instance starts in `text`: a stream holds several, and line
  /// numbers in errors then count from the start of the whole stream.
  std::size_t start = 0;
  /// The line `start` is on, when the caller knows it (0: not known): errors
  /// then count lines from there, not from the stream's first byte.
  std::uint64_t start_line = 0;
  /// Self-loops are moves that leave a token in place (--loopy), not errors.
  bool self_loops = false;
};

/// A plain edge list (GAP Benchmark Suite .el, SNAP): "u v" per line, no
/// header; leading lines starting with # are comments. N is one past the
/// largest id, or a comment "# nodes: N" if larger; the tokens come from the
/// command line, or else from a comment "# tokens: a b c" (what
/// write_edge_list writes, so that a written game reads back whole).
struct EdgeListOptions {
  std::string_view source = "<input>";
  unsigned threads = 1;
  std::uint64_t base = 0;               ///< ids start at 0 (GAPBS) or 1
  std::vector<std::uint64_t> tokens{};  ///< token ids, in the same base
  PhaseTimer* timer = nullptr;
  bool self_loops = false;  ///< as ParseOptions::self_loops
};
OwnedGame parse_edge_list(std::string_view text, const EdgeListOptions& options);

/// Parses one classic instance that fills `text` (nothing may follow it).
/// Throws InputError on any malformed input, including self-loops unless
/// options.self_loops.
OwnedGame parse_classic(std::string_view text, const ParseOptions& options = {});

/// The same into `out`, with `ids` as scratch: both keep their capacity, so
/// a batch worker parsing its 10,000th instance allocates nothing.
void parse_classic(std::string_view text, const ParseOptions& options, OwnedGame& out, UnzeroedArray<node_t>& ids);

}  // namespace grundy

namespace grundy {

class OutputFile;

/// Writes `game` in the classic format: "N M K", one edge per line, then the
/// tokens on one line, ids 1-based. `progress(edges_written)` now and then.
void write_classic(const GameView& game, OutputFile& out, const std::function<void(std::uint64_t)>& progress = {});

/// Writes `game` as an edge list: "# nodes: N" and "# tokens: ..." comments,
/// then one edge "u v" per line, ids 0-based (GAPBS's base).
void write_edge_list(const GameView& game, OutputFile& out, const std::function<void(std::uint64_t)>& progress = {});

/// True when a path names an edge list (.el): how every command tells an
/// edge list from classic text, which no content can.
bool is_edge_list_path(std::string_view path);

}  // namespace grundy
