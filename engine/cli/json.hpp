// The one JSON helper the commands share: strings, escaped per RFC 8259.
// (Objects are small and flat enough to write with snprintf.)
#pragma once

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

}  // namespace grundy::cli
