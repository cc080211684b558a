// Whether this test binary runs under a sanitizer (ASan or TSan): there,
// peak memory says nothing (the sanitizer's allocator keeps freed memory)
// and the same workload takes several times as long.
#pragma once

namespace grundy::test_support {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace grundy::test_support
