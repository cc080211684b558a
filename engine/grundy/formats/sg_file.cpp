#include "grundy/formats/sg_file.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "grundy/core/input_error.hpp"

namespace grundy {

static_assert(std::endian::native == std::endian::little, "the binary SG files are written as stored");

const std::vector<std::string>& sg_format_names() {
  static const std::vector<std::string> names = {"auto", "text", "u16", "u32", "npy"};
  return names;
}

SgFileFormat sg_file_format(std::string_view name, std::string_view path) {
  if (name == "auto") return path.ends_with(".npy") ? SgFileFormat::npy : SgFileFormat::text;
  if (name == "text") return SgFileFormat::text;
  if (name == "u16") return SgFileFormat::u16;
  if (name == "u32") return SgFileFormat::u32;
  if (name == "npy") return SgFileFormat::npy;
  throw std::invalid_argument("unknown SG file format \"" + std::string(name) + "\"");
}

namespace {

template <class Out, class In>
void write_binary(OutputFile& out, std::span<const In> values) {
  constexpr std::size_t kBlock = std::size_t{1} << 18;
  std::vector<Out> block;
  block.reserve(kBlock);
  const auto flush = [&] {
    out.write({reinterpret_cast<const char*>(block.data()), block.size() * sizeof(Out)});
    block.clear();
  };
  for (std::size_t u = 0; u < values.size(); ++u) {
    if constexpr (sizeof(Out) < sizeof(In)) {
      if (values[u] > 0xffff)
        throw InputError("--sg-format u16: node " + std::to_string(u + 1) + " has SG " + std::to_string(values[u]) +
                         ", past 65535; write u32 or npy");
    }
    block.push_back(static_cast<Out>(values[u]));
    if (block.size() == kBlock) flush();
  }
  flush();
}

}  // namespace

std::string npy_header(std::size_t count, unsigned bytes) {
  std::string dict = "{'descr': '<u" + std::to_string(bytes) + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(count) + ",), }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

void write_sg_file(OutputFile& out, SgSpan sg, std::span<const node_t> original_ids, SgFileFormat format) {
  std::visit([&](auto stored) {
    using In = std::remove_const_t<typename decltype(stored)::element_type>;
    std::span<const In> values(stored.data(), stored.size());
    // By the user's ids: a renumbered file's values are scattered back first.
    Array<In> by_user;
    if (!original_ids.empty()) {
      by_user = Array<In>(values.size());
      for (std::size_t u = 0; u < values.size(); ++u) by_user[original_ids[u]] = values[u];
      values = std::span<const In>(by_user.data(), by_user.size());
    }
    switch (format) {
      case SgFileFormat::text: return write_lines(out, values);
      case SgFileFormat::u16: return write_binary<std::uint16_t>(out, values);
      case SgFileFormat::u32: return write_binary<std::uint32_t>(out, values);
      case SgFileFormat::npy: out.write(npy_header(values.size(), sizeof(In))); return write_binary<In>(out, values);
    }
  }, sg);
}

}  // namespace grundy
