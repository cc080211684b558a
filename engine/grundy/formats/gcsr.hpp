// The binary CSR file (.gcsr): graphs loaded by mapping, with no parse and
// no copy. The byte layout is specified in docs/FORMAT.md; this header is
// its reader and writer.
//
// Reading maps the file read-only and validates everything before any use:
// the header (magic, version, checksum, sizes against the file length) and,
// in one parallel pass, the arrays (offsets monotone and ending at M, every
// target and token below N, layers well formed with every edge pointing to a
// later layer, original ids a permutation, degree runs true to the
// offsets). A truncated, corrupted or foreign file is an InputError, never a
// crash or a read past the mapping.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "grundy/core/csr_graph.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/io/temp_file.hpp"

namespace grundy {

inline constexpr char kGcsrMagic[8] = {'G', 'C', 'S', 'R', '\r', '\n', '\x1a', '\n'};
inline constexpr std::uint32_t kGcsrVersion = 1;

/// True when `bytes` starts like a .gcsr file (the magic): how every command
/// tells binary input from text, by content and not by name.
bool looks_like_gcsr(std::string_view bytes);

/// True when an output path asks for .gcsr (its extension): how writers
/// choose between binary and text.
bool is_gcsr_path(std::string_view path);

/// A validated .gcsr file: views into the caller's mapping (keep it alive).
struct GcsrGame {
  GameView game;                         ///< ids as stored (renumbered if layered)
  StoredLayers layers;                   ///< empty unless layered
  std::span<const node_t> original_ids;  ///< empty unless layered: stored id -> user's id
};

/// Validates `bytes` (the whole file) and returns views into it. Records a
/// "validate" phase. Throws InputError "<name>: <what>" on any defect.
GcsrGame read_gcsr(std::string_view bytes, const std::string& name, const ParallelConfig& pc,
                   PhaseTimer* timer = nullptr);

/// Where a checked .gcsr file's arrays lie (byte offsets; 0: absent), for a
/// reader that maps only its part of a file (grundy-mpi's ranks).
struct GcsrLayout {
  std::uint64_t n = 0, m = 0, k = 0, header_bytes = 0;
  bool layered = false;
  std::uint64_t offsets_at = 0, targets_at = 0, tokens_at = 0, layers_at = 0, layer_count = 0, original_ids_at = 0;
  std::uint64_t degree_runs_at = 0, degree_run_count = 0;
};

/// How many bytes to read for read_gcsr_layout, from the file's first 64.
std::uint64_t gcsr_header_bytes(std::string_view first64);

/// Checks the header and section table (`head`: the file's first bytes, at
/// least what gcsr_header_bytes says) of a file of `file_bytes` bytes, with
/// read_gcsr's errors.
GcsrLayout read_gcsr_layout(std::string_view head, std::uint64_t file_bytes, const std::string& name);

/// Nodes lo..hi of a graph of n nodes and m edges: offsets[0..hi-lo] are
/// the file's offsets of nodes lo..hi (global), targets their edges' targets.
struct CsrSlice {
  std::uint64_t n = 0, m = 0;
  node_t lo = 0, hi = 0;
  const edge_t* offsets = nullptr;
  const node_t* targets = nullptr;
};

/// read_gcsr's checks of the arrays, on one slice: its offsets, its edges'
/// targets, the tokens, and for a layered file (layer_begin non-empty) that
/// its edges point to later layers and that its nodes keep their degree
/// runs (degree_of(u): the out-degree of a node outside the slice). Throws
/// InputError with the same messages.
void check_gcsr_slice(const CsrSlice& slice, std::span<const node_t> tokens, std::span<const node_t> layer_begin,
                      std::span<const node_t> degree_runs, const std::function<edge_t(node_t)>& degree_of,
                      const ParallelConfig& pc, const std::string& name);

/// Writes a .gcsr file in place through a shared mapping of a temporary file
/// that commit() renames to `path`. Space is reserved up front (a full disk
/// is an error here, not a signal later); destroying the writer without
/// commit() removes the temporary. A layered file's degree runs are derived
/// from its offsets and layers at commit(), and appended then (their count
/// is known only once the offsets are written).
class GcsrWriter {
 public:
  /// layers > 0 makes a layered file with that many layers.
  GcsrWriter(std::string path, node_t n, edge_t m, std::uint64_t k, std::uint64_t layers = 0);
  ~GcsrWriter();
  GcsrWriter(const GcsrWriter&) = delete;
  GcsrWriter& operator=(const GcsrWriter&) = delete;

  edge_t* offsets() const { return offsets_; }
  node_t* targets() const { return targets_; }
  node_t* tokens() const { return tokens_; }
  node_t* layer_begin() const { return layer_begin_; }    ///< layers+1 entries
  node_t* original_ids() const { return original_ids_; }  ///< n entries

  /// Appends a layered file's degree runs, seals the header (checksum),
  /// unmaps, and renames into place.
  void commit();

 private:
  std::string path_;
  std::unique_ptr<TempFile> temp_file_;
  char* base_ = nullptr;
  std::size_t size_ = 0;
  edge_t* offsets_ = nullptr;
  node_t* targets_ = nullptr;
  node_t* tokens_ = nullptr;
  node_t* layer_begin_ = nullptr;
  node_t* original_ids_ = nullptr;
  std::uint64_t layers_ = 0;  // 0: not layered
};

/// Writes an in-memory game (plus optional layering) as .gcsr.
void write_gcsr(const std::string& path, const GameView& game, std::span<const node_t> layer_begin = {},
                std::span<const node_t> original_ids = {});

}  // namespace grundy
