// The JSON helpers the commands share: strings, escaped per RFC 8259, and
// numbers. (Objects are small and flat enough to write by hand.)
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace grundy::cli {

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// A number as JSON: six significant digits, null when not finite.
inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace grundy::cli
