// The tokens of text games: one meaning of whitespace for every reader.
//
// A token is a run of bytes that are not whitespace, and whitespace is what
// Python's bytes.split() accepts (space, \t \n \v \f \r), the reference this
// format was first solved with. The classic parser and the stream framer
// both cut text here, so they never disagree on where a token ends: any
// other byte, a control byte included, belongs to a token (which is then
// no number, and the parser says so).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "grundy/primitives/simd/byte_masks.hpp"

namespace grundy::text_tokens {

enum ByteClass : std::uint8_t { kSpace = 0, kDigit = 1, kOther = 2 };

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> c{};
  for (auto& x : c) x = kOther;
  for (int d = '0'; d <= '9'; ++d) c[d] = kDigit;
  for (unsigned char s : {' ', '\t', '\n', '\r', '\v', '\f'}) c[s] = kSpace;
  return c;
}
inline constexpr auto kClass = make_classes();

inline ByteClass byte_class(char c) { return static_cast<ByteClass>(kClass[static_cast<unsigned char>(c)]); }
inline bool is_space(char c) { return byte_class(c) == kSpace; }
inline bool is_digit(char c) { return byte_class(c) == kDigit; }

/// Bit i set: byte p[i] of 64 belongs to a token.
inline std::uint64_t token_bytes(const char* p) { return ~bytes::classify_space(p); }

/// The first byte at or after pos that is not whitespace (or text.size()).
inline std::size_t skip_space(std::string_view text, std::size_t pos) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  return pos;
}

/// The end of the token that starts at pos.
inline std::size_t token_end(std::string_view text, std::size_t pos) {
  while (pos < text.size() && !is_space(text[pos])) ++pos;
  return pos;
}

/// The token that starts at pos.
inline std::string_view token_at(std::string_view text, std::size_t pos) {
  return text.substr(pos, token_end(text, pos) - pos);
}

/// The tokens of text[begin, end), 64 bytes a step while whole blocks remain.
inline std::uint64_t count_tokens(std::string_view text, std::size_t begin, std::size_t end) {
  std::uint64_t count = 0;
  bool in_token = false;
  std::size_t i = begin;
  for (; end - i >= 64; i += 64) {
    const std::uint64_t tokens = token_bytes(text.data() + i);
    count += bytes::popcount(bytes::run_starts(tokens, in_token));
    in_token = (tokens >> 63) != 0;
  }
  for (; i < end; ++i) {
    const bool space = is_space(text[i]);
    count += static_cast<std::uint64_t>(!space && !in_token);
    in_token = !space;
  }
  return count;
}

/// Moves p past `need` more tokens (p starts right after a token or at a
/// space), returning how many could not be found before e.
inline std::uint64_t skip_tokens(const char*& p, const char* e, std::uint64_t need) {
  bool prev_token = !is_space(p[-1]);  // a token precedes p (a header's K): never the text's start
  // 64 bytes a step (an instance of 6,000 edges is some 800 blocks, a few
  // instructions each); the block holding the need-th token start says
  // where it is.
  while (need > 0 && e - p >= 64) {
    const std::uint64_t tokens = token_bytes(p);
    std::uint64_t starts = bytes::run_starts(tokens, prev_token);
    const auto c = static_cast<std::uint64_t>(bytes::popcount(starts));
    if (c < need) {
      need -= c;
      prev_token = (tokens >> 63) != 0;
      p += 64;
      continue;
    }
    for (std::uint64_t k = 1; k < need; ++k) starts &= starts - 1;  // the need-th start
    p += std::countr_zero(starts);
    while (p < e && !is_space(*p)) ++p;
    return 0;
  }
  if (need > 0 && !is_space(p[-1])) {
    while (p < e && !is_space(*p)) ++p;  // finish a token the blocks stopped inside
  }
  while (need > 0 && p < e) {
    while (p < e && is_space(*p)) ++p;
    if (p == e) break;
    while (p < e && !is_space(*p)) ++p;
    --need;
  }
  return need;
}

}  // namespace grundy::text_tokens
