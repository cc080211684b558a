// Arrays that may be backed by transparent huge pages.
//
// The engine's passes gather from arrays of tens of megabytes at random (a
// node's row, its successors' values, their in-degrees), where a TLB miss
// costs a nested page walk on these virtual machines and huge pages save
// some. But the kernel grants huge pages only to memory that asks (THP
// "madvise"), and with defrag "madvise" a fault that asks compacts memory
// first: whole solves stalled for longer than the phases ever gained
// (docs/TUNING.md#huge-pages). So every large array is allocated 2 MiB-
// aligned, and asks only where a solve gathers from arrays large enough
// that the misses outweigh a stall (GRUNDY_HUGE_PAGES overrides).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace grundy {

/// Arrays of this size or more ask for huge pages by default: those of a
/// graph of some 10^8 nodes (its 1-byte in-degree counters are 95 MiB),
/// whose random accesses gain more than the faults' stalls cost; graphs of
/// 10^6 to 10^7 nodes stalled for more than they gained, and no array of theirs (nor
/// of a 2^24-node graph) reaches the bar (docs/TUNING.md#huge-pages).
inline constexpr std::size_t kHugePagesFromBytes = std::size_t{80} << 20;

/// The same bar for arrays that their builder writes whole, in parallel
/// (UnzeroedArray: a text's parsed ids, which become the graph's targets):
/// their 4 KiB pages' first writes cost more than the rare stall of a huge
/// page's fault (docs/TUNING.md#huge-pages).
inline constexpr std::size_t kBuiltHugePagesFromBytes = std::size_t{16} << 20;

/// Whether an array of `bytes` (2 MiB or more) asks for huge pages.
/// GRUNDY_HUGE_PAGES (read once): 1, every such array; 0, none; unset or
/// anything else, those of `from` (kHugePagesFromBytes) or more.
inline bool asks_huge_pages(std::size_t bytes, std::size_t from = kHugePagesFromBytes) {
  static const int forced = [] {
    const char* v = std::getenv("GRUNDY_HUGE_PAGES");
    if (v != nullptr && std::strcmp(v, "1") == 0) return 1;
    if (v != nullptr && std::strcmp(v, "0") == 0) return 0;
    return -1;
  }();
  return forced == -1 ? bytes >= from : forced == 1;
}

/// Arrays of this size or more on 4 KiB pages have their pages made in one
/// call as they are allocated (populate_for_writing).
inline constexpr std::size_t kPopulatedFromBytes = std::size_t{1} << 21;

/// Asks the kernel for the whole pages inside [p, p + bytes) at once
/// (MADV_POPULATE_WRITE), before the writers fault them in one at a time:
/// on these VMs a page's first fault is what costs, and two threads
/// faulting at once wait on each other (docs/TUNING.md#populated-arrays).
/// Advice only: a kernel before 5.14 refuses it, harmlessly. The pages then
/// lie on the allocating thread's NUMA node.
inline void populate_for_writing(void* p, std::size_t bytes) {
  constexpr std::uintptr_t page = 4096;
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = (at + page - 1) & ~(page - 1), end = (at + bytes) & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
}

/// Whether a vector's growth zeroes its new elements (std::vector's
/// value-initialization) or leaves them for their writers.
enum class Growth { zeroed, unwritten };

template <class T, Growth G = Growth::zeroed>
struct HugePageAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = HugePageAllocator<U, G>;
  };
  /// Below this size a huge page would be mostly empty: plain new.
  static constexpr std::size_t kMinBytes = std::size_t{1} << 21;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U, G>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMinBytes) return std::allocator<T>().allocate(n);
    const std::size_t rounded = (bytes + kMinBytes - 1) & ~(kMinBytes - 1);
    void* p = std::aligned_alloc(kMinBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    if (asks_huge_pages(rounded, G == Growth::unwritten ? kBuiltHugePagesFromBytes : kHugePagesFromBytes)) {
      ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure is harmless
    } else {
      populate_for_writing(p, rounded);
    }
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kMinBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      std::free(p);
    }
  }
  /// Growth::unwritten: a new element of a trivial type is left unwritten.
  template <class U>
  void construct(U* p) {
    if constexpr (G == Growth::unwritten) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U();
    }
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U, G>&) const {
    return true;
  }
};

/// The engine's array type: a std::vector on huge pages.
template <class T>
using Array = std::vector<T, HugePageAllocator<T>>;

/// An Array whose growth leaves new elements unwritten, for an array that
/// its builder writes whole (a graph's targets): in a one-shot solve the
/// first write to fresh memory is what costs (docs/TUNING.md#first-touch),
/// and the builder's parallel writers then share it, where a resize's
/// zeroing would pay it on one thread first (docs/TUNING.md#csr-from-pairs).
/// From kBuiltHugePagesFromBytes it asks for huge pages.
template <class T>
using UnzeroedArray = std::vector<T, HugePageAllocator<T, Growth::unwritten>>;

/// std::allocator, except that growth default-initializes: a resize leaves
/// new elements of a trivial type unwritten, instead of zeroing them in one
/// pass on the calling thread before their writers (a parallel parse) run.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) {}
  T* allocate(std::size_t n) {
    T* p = std::allocator<T>().allocate(n);
    if (n * sizeof(T) >= kPopulatedFromBytes) populate_for_writing(p, n * sizeof(T));
    return p;
  }
  void deallocate(T* p, std::size_t n) { std::allocator<T>().deallocate(p, n); }
  template <class U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// An array only ever walked in order (the lists that layering's threads
/// hand each other): on 4 KiB pages. Huge pages save such a walk no TLB
/// misses, and a fault that asks for one can stall for hundreds of
/// milliseconds on compaction (THP defrag "madvise"). Growth leaves it
/// unwritten: every element is written before it is read.
template <class T>
using SequentialArray = std::vector<T, UninitializedAllocator<T>>;

}  // namespace grundy
