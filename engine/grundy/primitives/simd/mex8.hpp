// The mex of a row of at most 8 successors, read as exactly 8 slots (the
// caller guarantees they exist), for the mex pass over a graph in cache.
//
// With AVX2, one load of the 8 ids, one gather of the values of the slots
// below the degree (the others are not read, and count as no value), a
// shift per value into 64-bit lanes of bits, and an OR across the lanes: the
// same instructions for every degree, about a fifth of a slot-by-slot body.
// A 16-bit value is gathered as 32 bits, so a 16-bit values array must be
// readable 2 bytes past its last value (SgValues keeps that slack). Without
// AVX2, the portable twin; a test checks one against the other.
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
template <class Sg>
inline Sg mex8_portable(const std::uint32_t* succ, std::size_t d, const Sg* sg) {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const std::uint64_t s = i < d ? sg[succ[i]] : 64;
    seen |= static_cast<std::uint64_t>(s < 64) << (s & 63);
  }
  return static_cast<Sg>(std::countr_one(seen));
}

template <class Sg>
inline Sg mex8(const std::uint32_t* succ, std::size_t d, const Sg* sg) {
  static_assert(sizeof(Sg) == 2 || sizeof(Sg) == 4, "16- or 32-bit values");
#if defined(__AVX2__)
  const __m256i ids = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(succ));
  const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(d)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
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
#else
  return mex8_portable(succ, d, sg);
#endif
}

}  // namespace grundy::simd
