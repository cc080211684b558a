// The mex of a row of at most 8 successors, read as exactly 8 slots (the
// caller guarantees they exist), for the mex pass over a graph in cache.
//
// The slots past the degree are masked out, so the body is the same for
// every degree and nothing is mispredicted when degrees vary node after
// node. With AVX2 (and 4-byte ids), one load of the 8 ids, one gather of the
// values of the slots below the degree (the others are not read, and count
// as no value), a shift per value into 64-bit lanes of bits, and an OR
// across the lanes, in place of a compare, shift and mask per slot. A
// 16-bit value is gathered as 32 bits, so a 16-bit values array must be
// readable 2 bytes past its last value (SgValues keeps that slack).
// Otherwise, the portable twin; a test checks one against the other.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace grundy::simd {

/// The mex of the values of succ[0..d) (d <= 8; slots d..7 exist and are
/// ignored), slot by slot, each past the degree masked out.
template <class Sg, class Target>
inline Sg mex8_portable(const Target* succ, std::size_t d, const Sg* sg) {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const std::uint64_t s = i < d ? sg[succ[i]] : 64;
    seen |= static_cast<std::uint64_t>(s < 64) << (s & 63);
  }
  return static_cast<Sg>(std::countr_one(seen));
}

/// The same; 4-byte ids are gathered as signed 32-bit indices, so they must
/// be below 2^31 (the mex pass takes this body only in graphs in cache).
template <class Sg, class Target>
inline Sg mex8(const Target* succ, std::size_t d, const Sg* sg) {
  static_assert(sizeof(Sg) == 2 || sizeof(Sg) == 4, "16- or 32-bit values");
#if defined(__AVX2__)
  if constexpr (sizeof(Target) == 4) {
    const __m256i ids = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(succ));
    const __m256i live =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(d)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i none = _mm256_set1_epi32(64);  // a value that sets no bit
    const int* const base = reinterpret_cast<const int*>(sg);
    __m256i v = _mm256_mask_i32gather_epi32(none, base, ids, live, static_cast<int>(sizeof(Sg)));
    if constexpr (sizeof(Sg) == 2) v = _mm256_and_si256(v, _mm256_set1_epi32(0xFFFF));  // the value's 16 bits
    // A shift by 64 or more gives 0: values past 63 set no bit.
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i low = _mm256_sllv_epi64(one, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
    const __m256i high = _mm256_sllv_epi64(one, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
    const __m256i bits = _mm256_or_si256(low, high);
    __m128i seen = _mm_or_si128(_mm256_castsi256_si128(bits), _mm256_extracti128_si256(bits, 1));
    seen = _mm_or_si128(seen, _mm_unpackhi_epi64(seen, seen));
    return static_cast<Sg>(std::countr_one(static_cast<std::uint64_t>(_mm_cvtsi128_si64(seen))));
  }
#endif
  return mex8_portable(succ, d, sg);
}

}  // namespace grundy::simd
