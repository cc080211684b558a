#include "grundy/input_error.hpp"

#include <algorithm>
#include <cstdio>

namespace grundy {

std::uint64_t line_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::uint64_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

void throw_at(std::string_view source, std::string_view text, std::size_t offset,
              const std::string& what) {
  throw InputError(std::string(source) + ":" + std::to_string(line_of(text, offset)) + ": " +
                   what);
}

std::string quote_token(std::string_view token) {
  constexpr std::size_t kShown = 32;
  std::string out = "\"";
  for (std::size_t i = 0; i < token.size() && i < kShown; ++i) {
    auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (token.size() > kShown) out += "...";
  return out + "\"";
}

}  // namespace grundy
