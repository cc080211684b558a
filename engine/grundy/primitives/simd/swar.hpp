// Decimal digits to a number, eight bytes at a time (SIMD within a
// register), for the parser once byte_masks.hpp has found each number.
//
// Portable C++ on a uint64_t: no intrinsics, so the same code builds for
// every x86-64 (and any little-endian 64-bit target) without -march flags.
#pragma once

#include <cstdint>
#include <cstring>

namespace grundy::swar {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ull;

inline std::uint64_t load8(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

/// The value of the first `len` (1..8) bytes as decimal digits, the first
/// byte the most significant: shift them to the top, then combine pairs,
/// quads and octets with three multiplies.
inline std::uint64_t parse_digits(std::uint64_t chunk, unsigned len) {
  std::uint64_t v = (chunk & (kOnes * 0x0F)) << (8 * (8 - len));
  v = (v * 2561) >> 8;                                          // 10*256 + 1: digit pairs
  v = ((v & 0x00FF00FF00FF00FFull) * 6553601) >> 16;            // 100*65536 + 1: quads
  return ((v & 0x0000FFFF0000FFFFull) * 42949672960001) >> 32;  // 10000*2^32 + 1: octets
}

/// parse_digits for 1 to 4 digits in the low bytes of a 32-bit word: one
/// multiply fewer, and immediates that fit the instructions.
inline std::uint32_t parse_digits4(std::uint32_t chunk, unsigned len) {
  std::uint32_t v = (chunk & 0x0F0F0F0Fu) << (8 * (4 - len));
  v = (v * 2561) >> 8;                         // digit pairs
  return ((v & 0x00FF00FFu) * 6553601) >> 16;  // the quad, in the low 16 bits
}

}  // namespace grundy::swar
