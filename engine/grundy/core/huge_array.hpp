// Arrays backed by transparent huge pages.
//
// The engine's passes gather from arrays of tens of megabytes at random (a
// node's row, its successors' values, their in-degrees). On these virtual
// machines a TLB miss costs a nested page walk: a pointer chase through one
// random cycle over 128 MiB measured 202-217 ns a step with 4 KiB pages and
// 169-171 ns with 2 MiB pages (/tmp probe, 2026-11-30). The kernel grants
// huge pages only to memory that asks (THP "madvise" mode), so every large
// engine array is allocated 2 MiB-aligned and asks.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace grundy {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  /// Below this size a huge page would be mostly empty: plain new.
  static constexpr std::size_t kMinBytes = std::size_t{1} << 21;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMinBytes) return std::allocator<T>().allocate(n);
    const std::size_t rounded = (bytes + kMinBytes - 1) & ~(kMinBytes - 1);
    void* p = std::aligned_alloc(kMinBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure is harmless
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kMinBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      std::free(p);
    }
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

/// The engine's array type: a std::vector on huge pages.
template <class T>
using Array = std::vector<T, HugePageAllocator<T>>;

}  // namespace grundy
