#include "grundy/core/input_error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace grundy {

std::uint64_t line_breaks(std::string_view text, std::size_t from, std::size_t to) {
  to = std::min(to, text.size());
  if (from >= to) return 0;
  // LFs and CRs by a loop the compiler vectorizes (the batch's framer counts
  // every byte of a stream here): 32 byte-wide counters, one per byte of a
  // 32-byte step, so that no lane is widened, summed every 255 steps
  // before one can wrap. Then the CRs, which most text has none of, found
  // one by one: a CR followed by an LF is that LF's break, not one of its own.
  const char* const p = text.data();
  std::uint64_t breaks = 0;
  std::size_t i = from;
  constexpr std::size_t kLanes = 32, kSteps = 255;
  while (to - i >= kLanes) {
    std::uint8_t lane[kLanes] = {};
    const std::size_t steps = std::min(kSteps, (to - i) / kLanes);
    for (std::size_t k = 0; k < steps; ++k, i += kLanes)
      for (std::size_t j = 0; j < kLanes; ++j)
        lane[j] = static_cast<std::uint8_t>(lane[j] + ((p[i + j] == '\n') | (p[i + j] == '\r')));
    for (const std::uint8_t c : lane) breaks += c;
  }
  for (; i < to; ++i) breaks += static_cast<std::uint64_t>(p[i] == '\n' || p[i] == '\r');
  for (const char* cr = static_cast<const char*>(std::memchr(p + from, '\r', to - from)); cr != nullptr;
       cr = static_cast<const char*>(std::memchr(cr + 1, '\r', static_cast<std::size_t>(p + to - cr - 1)))) {
    const std::size_t at = static_cast<std::size_t>(cr - p);
    breaks -= static_cast<std::uint64_t>(at + 1 < text.size() && p[at + 1] == '\n');
    if (at + 1 == to) break;
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
