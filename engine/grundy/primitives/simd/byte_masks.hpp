// Classifies 64 bytes at once into bit masks (bit i = byte p[i]), for the
// text scanners' block paths and layering's scan for ready nodes (which
// also reads 64 four-byte counters at once).
//
// With masks, where each number starts is known for a whole block before any
// of them is parsed, so the numbers of a block are parsed independently of
// each other instead of through a chain of "where did the last one end".
// x86-64 always has SSE2, so the SSE2 path needs no -march flag; an AVX2
// build (x86-64-v3, the default) classifies 32 bytes an instruction; other
// targets take the portable loop, which the tests also check against it.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace grundy::bytes {

/// The classes of 64 bytes: decimal digits, and the format's whitespace
/// (space, \t \n \v \f \r). A byte in neither mask is some other byte.
struct Masks {
  std::uint64_t digit = 0;
  std::uint64_t space = 0;
};

/// classify() without SIMD, one byte at a time.
inline Masks classify_portable(const char* p) {
  Masks m;
  for (unsigned i = 0; i < 64; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    m.digit |= std::uint64_t{static_cast<unsigned>(c - '0') < 10} << i;
    m.space |= std::uint64_t{c == ' ' || static_cast<unsigned>(c - '\t') < 5} << i;
  }
  return m;
}

/// The whitespace mask of classify() alone, without SIMD.
inline std::uint64_t classify_space_portable(const char* p) { return classify_portable(p).space; }

/// Line breaks (LF and CR), without SIMD.
inline std::uint64_t line_breaks_portable(const char* p) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; ++i) m |= std::uint64_t{p[i] == '\n' || p[i] == '\r'} << i;
  return m;
}

/// Zero bytes, without SIMD.
inline std::uint64_t zero_bytes_portable(const std::uint8_t* p) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; ++i) m |= std::uint64_t{p[i] == 0} << i;
  return m;
}

/// Zero 32-bit words, without SIMD.
inline std::uint64_t zero_words_portable(const std::uint32_t* p) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; ++i) m |= std::uint64_t{p[i] == 0} << i;
  return m;
}

#if defined(__AVX2__)

// Two 32-byte halves a call: half the instructions of the SSE2 path.
inline std::uint64_t two_halves(std::uint32_t low, std::uint32_t high) {
  return std::uint64_t{low} | std::uint64_t{high} << 32;
}
inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline std::uint32_t bits_of(__m256i bytes) { return static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes)); }

/// The zero bytes of p[0, 64).
inline std::uint64_t zero_bytes(const std::uint8_t* p) {
  const __m256i zero = _mm256_setzero_si256();
  return two_halves(bits_of(_mm256_cmpeq_epi8(load32(p), zero)), bits_of(_mm256_cmpeq_epi8(load32(p + 32), zero)));
}

/// The zero words of p[0, 64) (32 bits each): eight a compare.
inline std::uint64_t zero_words(const std::uint32_t* p) {
  const __m256i zero = _mm256_setzero_si256();
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 8; ++i) {
    const __m256i z = _mm256_cmpeq_epi32(load32(p + 8 * i), zero);
    m |= std::uint64_t{static_cast<std::uint8_t>(_mm256_movemask_ps(_mm256_castsi256_ps(z)))} << (8 * i);
  }
  return m;
}

// Bytes lo..lo+count-1: adding 0x80 - lo maps them onto -128..-128+count-1,
// the only bytes below -128+count in a signed compare.
inline __m256i in_range(__m256i x, char lo, char count) {
  return _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(0x80 + count)),
                           _mm256_add_epi8(x, _mm256_set1_epi8(static_cast<char>(0x80 - lo))));
}
inline __m256i space_of(__m256i x) {
  return _mm256_or_si256(in_range(x, '\t', 5), _mm256_cmpeq_epi8(x, _mm256_set1_epi8(' ')));
}
inline __m256i break_of(__m256i x) {
  return _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r')));
}

/// The classes of p[0, 64).
inline Masks classify(const char* p) {
  const __m256i lo = load32(p), hi = load32(p + 32);
  return {two_halves(bits_of(in_range(lo, '0', 10)), bits_of(in_range(hi, '0', 10))),
          two_halves(bits_of(space_of(lo)), bits_of(space_of(hi)))};
}

/// The line breaks (LF and CR) of p[0, 64).
inline std::uint64_t line_breaks(const char* p) {
  return two_halves(bits_of(break_of(load32(p))), bits_of(break_of(load32(p + 32))));
}

/// The whitespace mask of classify() alone (space, \t \n \v \f \r).
inline std::uint64_t classify_space(const char* p) {
  return two_halves(bits_of(space_of(load32(p))), bits_of(space_of(load32(p + 32))));
}

#elif defined(__SSE2__)

/// The zero bytes of p[0, 64).
inline std::uint64_t zero_bytes(const std::uint8_t* p) {
  const __m128i zero = _mm_setzero_si128();
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, zero)))} << (16 * i);
  }
  return m;
}

/// The zero words of p[0, 64) (32 bits each): four a compare.
inline std::uint64_t zero_words(const std::uint32_t* p) {
  const __m128i zero = _mm_setzero_si128();
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 16; ++i) {
    const __m128i z = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * i)), zero);
    m |= std::uint64_t{static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(z)))} << (4 * i);
  }
  return m;
}

/// The classes of p[0, 64).
inline Masks classify(const char* p) {
  // Adding 0x80 - lo maps lo..lo+k-1 onto -128..-128+k-1, the only bytes
  // below -128+k in a signed compare: one add and one compare per range.
  const __m128i digit_bias = _mm_set1_epi8(static_cast<char>(0x80 - '0'));
  const __m128i digit_top = _mm_set1_epi8(static_cast<char>(0x80 + 10));
  const __m128i ctrl_bias = _mm_set1_epi8(static_cast<char>(0x80 - '\t'));
  const __m128i ctrl_top = _mm_set1_epi8(static_cast<char>(0x80 + 5));
  const __m128i blank = _mm_set1_epi8(' ');
  Masks m;
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i d = _mm_cmplt_epi8(_mm_add_epi8(x, digit_bias), digit_top);
    const __m128i s = _mm_or_si128(_mm_cmplt_epi8(_mm_add_epi8(x, ctrl_bias), ctrl_top), _mm_cmpeq_epi8(x, blank));
    m.digit |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(d))} << (16 * i);
    m.space |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(s))} << (16 * i);
  }
  return m;
}

/// The line breaks (LF and CR) of p[0, 64).
inline std::uint64_t line_breaks(const char* p) {
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i b = _mm_or_si128(_mm_cmpeq_epi8(x, lf), _mm_cmpeq_epi8(x, cr));
    m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(b))} << (16 * i);
  }
  return m;
}

/// The whitespace mask of classify() alone (space, \t \n \v \f \r).
inline std::uint64_t classify_space(const char* p) {
  const __m128i ctrl_bias = _mm_set1_epi8(static_cast<char>(0x80 - '\t'));
  const __m128i ctrl_top = _mm_set1_epi8(static_cast<char>(0x80 + 5));
  const __m128i blank = _mm_set1_epi8(' ');
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i s = _mm_or_si128(_mm_cmplt_epi8(_mm_add_epi8(x, ctrl_bias), ctrl_top), _mm_cmpeq_epi8(x, blank));
    m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(s))} << (16 * i);
  }
  return m;
}

#else

inline Masks classify(const char* p) { return classify_portable(p); }
inline std::uint64_t classify_space(const char* p) { return classify_space_portable(p); }
inline std::uint64_t line_breaks(const char* p) { return line_breaks_portable(p); }
inline std::uint64_t zero_bytes(const std::uint8_t* p) { return zero_bytes_portable(p); }
inline std::uint64_t zero_words(const std::uint32_t* p) { return zero_words_portable(p); }

#endif

/// std::popcount, but inline where the target has no popcnt instruction
/// (plain x86-64 builds call a library routine for it, once per block here).
inline unsigned popcount(std::uint64_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
  return static_cast<unsigned>(std::popcount(x));
#else
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
#endif
}

/// The first byte of each run of set bits in `mask` (a token's first byte),
/// given whether the byte before the block continued a run (carry_in).
inline std::uint64_t run_starts(std::uint64_t mask, bool carry_in) {
  return mask & ~((mask << 1) | std::uint64_t{carry_in});
}

/// Bit i set where bits i..i+8 of `mask` are all set, the bits past 63
/// taken from `next` (the following block's mask): where a run of nine or
/// more starts, in four steps of doubling width rather than eight shifts.
inline std::uint64_t runs_of_nine(std::uint64_t mask, std::uint64_t next) {
  const std::uint64_t two = mask & ((mask >> 1) | (next << 63)), two_next = next & (next >> 1);
  const std::uint64_t four = two & ((two >> 2) | (two_next << 62)), four_next = two_next & (two_next >> 2);
  const std::uint64_t eight = four & ((four >> 4) | (four_next << 60));
  return eight & ((mask >> 8) | (next << 56));
}

/// The bits of `events` that directly follow a bit of `from` (a subset of
/// events), or that follow bit -1 when carry_in: each bit of `from`, shifted
/// on by one, ripples by an addition through the bits not in `events` to the
/// first that is. (The event after each line break, after each first token,
/// ..., for a whole block at once.)
inline std::uint64_t next_events(std::uint64_t from, std::uint64_t events, bool carry_in) {
  return (((from << 1) | std::uint64_t{carry_in}) + ~events) & events;
}

}  // namespace grundy::bytes
