// Writing a generated DAG to a file: classic text, .gcsr straight from the
// generator, or a layered .gcsr (renumbered by topological layers). The one
// path that `grundy gen` and `grundy bench`'s dataset cache both take.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "grundy/core/csr_graph.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy {

/// Writes `game` to `path` as a layered .gcsr (renumbered by topological
/// layers, with the user's ids kept); `source` names the input in a cycle's
/// error. Returns the number of layers. What `gen --layered` and
/// `convert --layered` share.
std::uint64_t write_layered_gcsr(const std::string& path, const GameView& game, const ParallelConfig& pc,
                                 const std::string& source);

/// About how many bytes write_generated() will write for these arguments
/// (for .gcsr its sections and up to 4 KiB of header and padding over, a
/// layered file's few degree runs under; an upper bound
/// for text, every id taken at N's digits).
std::uint64_t planned_output_bytes(const GenSpec& spec, const std::string& path, bool layered, std::uint64_t instances);

/// Writes spec to `path`: .gcsr or an edge list (.el) by its extension,
/// classic text otherwise; `layered`
/// needs .gcsr. `instances` > 1 writes that many text instances (seeds
/// seed, seed+1, ...) as one stream. Throws std::invalid_argument for an
/// impossible request, InputError for I/O failures (no partial file is left).
void write_generated(const GenSpec& spec, const std::string& path, bool layered, std::uint64_t instances,
                     const ParallelConfig& pc, const std::function<void(std::uint64_t)>& progress = {});

}  // namespace grundy
