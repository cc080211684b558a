// Copies that bypass the caches (non-temporal stores), for data written now
// and read much later: the blocked scatter's full bins. The portable twin is
// a plain copy; stream_fence() orders the streamed stores before what follows.
#pragma once

#include <cstddef>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace grundy::simd {

/// A plain copy of `bytes` bytes (a multiple of 16).
inline void stream_copy_portable(void* to, const void* from, std::size_t bytes) { std::memcpy(to, from, bytes); }

/// The same through non-temporal stores where the target has SSE2; `to`
/// 16-byte aligned.
inline void stream_copy(void* to, const void* from, std::size_t bytes) {
#if defined(__SSE2__)
  auto* out = static_cast<__m128i*>(to);
  const auto* in = static_cast<const __m128i*>(from);
  for (std::size_t k = 0; k < bytes / 16; ++k) _mm_stream_si128(out + k, _mm_loadu_si128(in + k));
#else
  stream_copy_portable(to, from, bytes);
#endif
}

/// Makes the streamed stores visible before any later store.
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace grundy::simd
