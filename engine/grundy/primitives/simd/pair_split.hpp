// Eight (source, target) pairs at a time, for csr_from_pairs: a parsed
// text's pairs lie interleaved, and grouped by source they are CSR rows
// already, once the targets are apart.
//
// With AVX2, the 16 ids in two loads, one permutation each and two lane
// swaps put the sources and the targets in a register each; a compare with
// the sources shifted by one lane finds where the sources fall. Without
// AVX2, the portable twin, one pair at a time; a test checks one against
// the other.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace grundy::simd {

/// What split_pairs8 found in its eight pairs: bit i of `loops` set where
/// pair i is a self-loop; `ordered` when no source is smaller than the one
/// before it.
struct PairsFound {
  std::uint32_t loops = 0;
  bool ordered = true;
};

/// split_pairs8 for the first `count` pairs (8 or fewer), one at a time.
inline PairsFound split_pairs_portable(const std::uint32_t* pairs, std::size_t count, std::uint32_t before,
                                       std::uint32_t* targets) {
  PairsFound f;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t s = pairs[2 * i], t = pairs[2 * i + 1];
    targets[i] = t;
    f.loops |= static_cast<std::uint32_t>(s == t) << i;
    f.ordered &= s >= before;
    before = s;
  }
  return f;
}

#if defined(__AVX2__)
namespace detail {
// The 8 sources of pairs[0..16) in lanes 0-7, and the targets.
inline void deinterleave8(const std::uint32_t* pairs, __m256i& sources, __m256i& targets) {
  const __m256i even_odd = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs)), even_odd);
  const __m256i b =
      _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs + 8)), even_odd);
  sources = _mm256_permute2x128_si256(a, b, 0x20);
  targets = _mm256_permute2x128_si256(a, b, 0x31);
}

// Each source's predecessor: `before`, then sources 0-6.
inline __m256i sources_before(__m256i sources, std::uint32_t before) {
  const __m256i up = _mm256_permutevar8x32_epi32(sources, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));
  return _mm256_blend_epi32(up, _mm256_set1_epi32(static_cast<int>(before)), 0x01);
}

inline std::uint32_t lane_mask(__m256i x) {
  return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(x)));
}
}  // namespace detail
#endif

/// Writes the targets of the eight pairs at `pairs` to targets[0..8), and
/// says which are self-loops and whether the sources keep their order
/// (`before`: the source before pair 0).
inline PairsFound split_pairs8(const std::uint32_t* pairs, std::uint32_t before, std::uint32_t* targets) {
#if defined(__AVX2__)
  __m256i s, t;
  detail::deinterleave8(pairs, s, t);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(targets), t);
  const __m256i prev = detail::sources_before(s, before);
  // s >= prev, unsigned: max(s, prev) == s.
  const std::uint32_t ordered = detail::lane_mask(_mm256_cmpeq_epi32(_mm256_max_epu32(s, prev), s));
  return {detail::lane_mask(_mm256_cmpeq_epi32(s, t)), ordered == 0xFF};
#else
  return split_pairs_portable(pairs, 8, before, targets);
#endif
}

}  // namespace grundy::simd
