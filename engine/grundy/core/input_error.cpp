#include "grundy/core/input_error.hpp"

#include <cstring>

#include <algorithm>
#include <cstdio>

namespace grundy {

std::uint64_t line_breaks(std::string_view text, std::size_t from, std::size_t to) {
  to = std::min(to, text.size());
  if (from >= to) return 0;
  // LFs by a loop the compiler vectorizes (the batch's framer counts every
  // byte of a stream here); then the CRs, which most text has none of, one
  // by one: a CR is a break unless an LF follows it.
  const char* const p = text.data();
  std::uint64_t breaks = 0;
  for (std::size_t i = from; i < to; ++i) breaks += static_cast<std::uint64_t>(p[i] == '\n');
  for (const char* cr = static_cast<const char*>(std::memchr(p + from, '\r', to - from)); cr != nullptr;
       cr = static_cast<const char*>(std::memchr(cr + 1, '\r', static_cast<std::size_t>(p + to - cr - 1)))) {
    const std::size_t i = static_cast<std::size_t>(cr - p);
    breaks += static_cast<std::uint64_t>(i + 1 == text.size() || p[i + 1] != '\n');
    if (i + 1 == to) break;
  }
  return breaks;
}

namespace {
thread_local const LineOrigin* g_origin = nullptr;
}

LineOrigin::LineOrigin(std::string_view text, std::size_t offset, std::uint64_t line)
    : outer_(g_origin), data_(text.data()), offset_(offset), line_(line) {
  g_origin = this;
}

LineOrigin::~LineOrigin() { g_origin = outer_; }

std::uint64_t line_of(std::string_view text, std::size_t offset) {
  const LineOrigin* o = g_origin;
  if (o != nullptr && o->data_ == text.data() && offset >= o->offset_)
    return o->line_ + line_breaks(text, o->offset_, offset);
  return 1 + line_breaks(text, 0, offset);
}

void throw_at(std::string_view source, std::string_view text, std::size_t offset, const std::string& what) {
  throw InputError(std::string(source) + ":" + std::to_string(line_of(text, offset)) + ": " + what);
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
