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

/// The 1-based line that holds byte `offset` of `text`.
std::uint64_t line_of(std::string_view text, std::size_t offset);

/// Throws InputError "<source>:<line>: <what>" for byte `offset` of `text`.
[[noreturn]] void throw_at(std::string_view source, std::string_view text,
                           std::size_t offset, const std::string& what);

/// A token as it can be shown in a message: at most 32 characters, bytes
/// that are not printable ASCII written as \xNN.
std::string quote_token(std::string_view token);

}  // namespace grundy
