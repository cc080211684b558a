// Every node's SG value as a file (`solve --sg-out`): text, one value a line,
// or binary for graphs of 10^8 nodes, raw little-endian u16/u32 or NumPy's
// .npy (numpy.load reads it as it is). Values are listed by the user's ids.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "grundy/core/sg_values.hpp"
#include "grundy/io/output_file.hpp"

namespace grundy {

enum class SgFileFormat { text, u16, u32, npy };

/// The names --sg-format takes: auto (.npy by the path's extension, else
/// text), text, u16, u32, npy.
const std::vector<std::string>& sg_format_names();

/// The format `name` asks for, `path` deciding for "auto". Throws
/// std::invalid_argument for another name.
SgFileFormat sg_file_format(std::string_view name, std::string_view path);

/// NumPy's format 1.0 header for `count` values of `bytes` each: magic,
/// version, a little-endian u16 header length, and a dict padded with spaces
/// so that the data starts 64-byte aligned.
std::string npy_header(std::size_t count, unsigned bytes);

/// Writes `sg` in `format`, node 1..N in the user's numbering (`original_ids`
/// maps a stored id to the user's, empty when the same). Throws InputError
/// when a value does not fit u16 (naming the node and the way out).
void write_sg_file(OutputFile& out, SgSpan sg, std::span<const node_t> original_ids, SgFileFormat format);

}  // namespace grundy
