// Four decimal numbers of at most 8 digits at once (AVX2), for the text
// parser's block path: the digits go to one register, shifted to the top of
// their 64-bit lanes, then digit pairs, quads and octets are combined with
// three multiply-adds. The portable twin parses them one by one (SWAR); a
// test checks one against the other. Without AVX2 the parser leaves this path
// out (kParse4), so the twin only serves the test there.
#pragma once

#include <algorithm>
#include <cstdint>

#include "grundy/primitives/simd/swar.hpp"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace grundy::simd {

#if defined(__AVX2__)
inline constexpr bool kParse4 = true;
/// The largest (value - base) of the numbers parsed so far, per lane.
struct Worst4 {
  __m128i lanes = _mm_setzero_si128();
};
#else
inline constexpr bool kParse4 = false;
struct Worst4 {
  std::uint32_t lanes[4] = {};
};
#endif

/// The j-th number runs from blk + first[j] to blk + last[j] (inclusive, at
/// most 8 digits, 8 readable bytes from each start). Stores value - base at
/// out[0..3] and folds those four into `worst` (unsigned: below base wraps).
inline void parse4_portable(const char* blk, const std::uint64_t (&first)[4], const std::uint64_t (&last)[4],
                            std::uint64_t base, std::uint32_t* out, Worst4& worst) {
  std::uint32_t lanes[4];
  for (unsigned j = 0; j < 4; ++j) {
    const auto len = static_cast<unsigned>(last[j] - first[j] + 1);
    lanes[j] = static_cast<std::uint32_t>(swar::parse_digits(swar::load8(blk + first[j]), len) - base);
    out[j] = lanes[j];
  }
#if defined(__AVX2__)
  worst.lanes = _mm_max_epu32(worst.lanes, _mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes)));
#else
  for (unsigned j = 0; j < 4; ++j) worst.lanes[j] = std::max(worst.lanes[j], lanes[j]);
#endif
}

inline void parse4(const char* blk, const std::uint64_t (&first)[4], const std::uint64_t (&last)[4], std::uint64_t base,
                   std::uint32_t* out, Worst4& worst) {
#if defined(__AVX2__)
  const auto at = [&](int j) { return static_cast<long long>(swar::load8(blk + first[j])); };
  const __m256i chunks = _mm256_set_epi64x(at(3), at(2), at(1), at(0));
  const __m256i starts = _mm256_set_epi64x(static_cast<long long>(first[3]), static_cast<long long>(first[2]),
                                           static_cast<long long>(first[1]), static_cast<long long>(first[0]));
  const __m256i ends = _mm256_set_epi64x(static_cast<long long>(last[3]), static_cast<long long>(last[2]),
                                         static_cast<long long>(last[1]), static_cast<long long>(last[0]));
  // 8 * (8 - len) = 8 * (first + 7 - last)
  const __m256i shifts = _mm256_slli_epi64(_mm256_sub_epi64(_mm256_add_epi64(starts, _mm256_set1_epi64x(7)), ends), 3);
  __m256i v = _mm256_sllv_epi64(_mm256_and_si256(chunks, _mm256_set1_epi8(0x0F)), shifts);
  v = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x010A));   // bytes (a, b) -> 10a + b
  v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x00010064));  // 16-bit (a, b) -> 100a + b
  v = _mm256_packus_epi32(v, v);                            // 32-bit -> 16-bit (each <= 9999)
  v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x00012710));  // 16-bit (a, b) -> 10000a + b
  // Lanes now hold the values at 32-bit positions 0, 1 (from lanes 0, 1) and
  // 4, 5 (lanes 2, 3), each twice over: gather them into the low 128 bits.
  v = _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(0, 0, 0, 0, 5, 4, 1, 0));
  const __m128i values = _mm_sub_epi32(_mm256_castsi256_si128(v), _mm_set1_epi32(static_cast<int>(base)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), values);
  worst.lanes = _mm_max_epu32(worst.lanes, values);
#else
  parse4_portable(blk, first, last, base, out, worst);
#endif
}

/// The largest lane of `worst`.
inline std::uint32_t max_lane(const Worst4& worst) {
#if defined(__AVX2__)
  __m128i x = worst.lanes;
  x = _mm_max_epu32(x, _mm_shuffle_epi32(x, 0x4E));
  x = _mm_max_epu32(x, _mm_shuffle_epi32(x, 0xB1));
  return static_cast<std::uint32_t>(_mm_cvtsi128_si32(x));
#else
  return *std::max_element(worst.lanes, worst.lanes + 4);
#endif
}

}  // namespace grundy::simd
