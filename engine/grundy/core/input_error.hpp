// Errors in what the user fed us, and how their place is named.
//
// Every bad input ends as one line on stderr, `grundy: <source>:<line>: <what>`,
// and exit code 1. The hot paths only remember a byte offset; the line number
// is counted here, on the error path, so that parsing never pays for it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace grundy {

/// Bad input or an I/O failure. what() is the full message without the
/// "grundy: " prefix, e.g. "data.txt:3: node id 9 is out of range 1..5".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The line breaks in text[from, to): LF, or a CR not followed by LF (old
/// Mac files end their lines with CR alone).
std::uint64_t line_breaks(std::string_view text, std::size_t from, std::size_t to);

/// While alive, line_of() counts the lines of `text` from byte `offset`,
/// known to be on line `line`, instead of from its start: an error in the
/// 10,000th instance of a stream then costs that instance's bytes, not the
/// stream's (one origin per thread).
class LineOrigin {
 public:
  LineOrigin(std::string_view text, std::size_t offset, std::uint64_t line);
  ~LineOrigin();
  LineOrigin(const LineOrigin&) = delete;
  LineOrigin& operator=(const LineOrigin&) = delete;

 private:
  const LineOrigin* outer_;
  friend std::uint64_t line_of(std::string_view text, std::size_t offset);
  const char* data_;
  std::size_t offset_;
  std::uint64_t line_;
};

/// The 1-based line that holds byte `offset` of `text`.
std::uint64_t line_of(std::string_view text, std::size_t offset);

/// Throws InputError "<source>:<line>: <what>" for byte `offset` of `text`.
[[noreturn]] void throw_at(std::string_view source, std::string_view text, std::size_t offset, const std::string& what);

/// A token as it can be shown in a message: at most 32 characters, bytes
/// that are not printable ASCII written as \xNN.
std::string quote_token(std::string_view token);

}  // namespace grundy
