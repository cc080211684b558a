// Keeps the ids of a batch that fall in one range: the step that lets each
// thread of a count own a range of counters and read every edge (see
// count_owned in layering.cpp).
//
// With AVX2, eight ids a step: one compare gives a mask, a table gives the
// permutation that packs the kept lanes to the front, and one store writes
// all eight (the lanes past the kept ones are overwritten by the next
// step). AVX-512's compress with a memory operand would do it in one
// instruction, but it is microcoded on this machine's Zen 4: filtering
// wide-l's 10^8 targets took 140-177 ms with it, 23-36 ms compressing into
// a register and storing that (a /tmp probe, one thread). Without AVX2, a
// branch-free scalar loop: every id is written, and the end moves past the
// kept ones only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "grundy/core/csr_graph.hpp"

namespace grundy {

namespace detail {
// Entry m: the lanes whose bit is set in m, in order, then zeros.
inline constexpr auto kPackLanes = [] {
  std::array<std::array<std::uint32_t, 8>, 256> table{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned lane = 0; lane < 8; ++lane)
      if ((m >> lane) & 1) table[m][k++] = lane;
  }
  return table;
}();
}  // namespace detail

/// Writes the ids of in[0, count) that lie in [lo, hi) to `out`, in order,
/// and returns how many there are. `out` has room for `count` ids, and may
/// be `in`: each step's store ends before the next step's load begins.
/// 8-byte ids (a caller's array read in place) are narrowed on the way, by
/// the scalar loop alone.
template <class Id>
inline std::size_t keep_in_range(const Id* in, std::size_t count, node_t lo, node_t hi, node_t* out) {
  const node_t width = hi - lo;
  std::size_t kept = 0, i = 0;
#if defined(__AVX2__)
  if constexpr (sizeof(Id) == sizeof(node_t)) {
    if (width > 0) {
      const __m256i base = _mm256_set1_epi32(static_cast<int>(lo));
      const __m256i last = _mm256_set1_epi32(static_cast<int>(width - 1));
      for (; i + 8 <= count; i += 8) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
        const __m256i d = _mm256_sub_epi32(v, base);
        // d <= width - 1, unsigned: min(d, width - 1) == d.
        const __m256i inside = _mm256_cmpeq_epi32(_mm256_min_epu32(d, last), d);
        const auto mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(inside)));
        const __m256i pack = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(detail::kPackLanes[mask].data()));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + kept), _mm256_permutevar8x32_epi32(v, pack));
        kept += static_cast<std::size_t>(__builtin_popcount(mask));
      }
    }
  }
#endif
  for (; i < count; ++i) {
    const Id v = in[i];
    out[kept] = static_cast<node_t>(v);
    kept += static_cast<std::size_t>(v - Id{lo} < Id{width});
  }
  return kept;
}

}  // namespace grundy
