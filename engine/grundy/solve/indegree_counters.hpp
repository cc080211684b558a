// In-degree counters for Kahn's algorithm, in two widths with one interface.
//
// Layering spends its time on two read-modify-writes per edge at random
// nodes: counting in-degrees, then counting them down. What those cost is
// where the counters live. Four bytes a node put 10^7 nodes' counters at
// 40 MB, past this machine's 32 MiB L3; one byte puts them at 10 MB, inside
// it, and counting the in-degrees then took a third of the time
// (docs/TUNING.md#in-degree-counters).
//
// NarrowInDegrees keeps the low byte of each count in one array and carries
// into a 16-bit high part only for the rare node past 255 predecessors (a
// hub); a bitmap marks those, so the usual node never touches the high
// array. Counts of 2^24 or more do not fit: overflowed() says so, and the
// caller starts over with WideInDegrees.
//
// Three ways to learn that a count reached zero: remove() answers per
// decrement (a branch per edge, for rounds too narrow to scan for);
// remove_all_to_zeros() writes down every node whose low byte reached zero,
// for take_if_ready() to sort out later (a hub's high part is then looked
// up once a node, not at its last decrement); and decrement() answers
// nothing, leaving ready_mask() to find the zeros 64 nodes at a time
// afterwards. A node handed out is retire()d: its count is set to a
// non-zero mark, which nothing decrements again (every predecessor is done
// by then), so no scan finds it twice.
//
// Thread safety: calls on different nodes may run concurrently when the
// nodes lie in different 64-node-aligned ranges (the heavy bitmap is shared
// per 64 nodes); the blocked scatter's ranges are.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "grundy/primitives/simd/byte_masks.hpp"
#include "grundy/core/csr_graph.hpp"
#include "grundy/core/huge_array.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// Plain 4-byte counts: the choice for graphs whose counters fit a core's
/// cache anyway (there, the narrow counters' extra branch only costs), and
/// the fallback when a count passes the narrow range.
class WideInDegrees {
 public:
  /// n zero counts (padded to whole 64-node words with retired ones).
  void reset(node_t n) {
    count_.assign((std::size_t{n} + 63) / 64 * 64, kRetired);
    std::fill_n(count_.begin(), n, 0);
  }
  /// One more predecessor of v.
  void add(node_t v) { ++count_[v]; }
  /// add() for each of targets[0, count).
  template <class Target>
  void add_all(const Target* targets, std::size_t count) {
    node_t* const c = count_.data();
    for (std::size_t i = 0; i < count; ++i) ++c[targets[i]];
  }
  /// One predecessor of v fewer; true when that was its last.
  bool remove(node_t v) { return --count_[v] == 0; }
  /// One predecessor of v fewer; ready_mask() tells the zeros later.
  void decrement(node_t v) { --count_[v]; }
  /// decrement() for each of targets[0, count).
  template <class Target>
  void decrement_all(const Target* targets, std::size_t count) {
    node_t* const c = count_.data();
    for (std::size_t i = 0; i < count; ++i) --c[targets[i]];
  }
  /// remove() for each of targets[0, count), writing those that reach zero
  /// to `ready`; returns how many.
  template <class Target>
  std::size_t remove_all(const Target* __restrict targets, std::size_t count, node_t* __restrict ready) {
    node_t* const c = count_.data();
    std::size_t k = 0;
    for (std::size_t i = 0; i < count; ++i)
      if (--c[targets[i]] == 0) ready[k++] = static_cast<node_t>(targets[i]);
    return k;
  }
  /// remove() for each of targets[0, count), writing to `zeros` the nodes
  /// that may have reached zero (here exactly those that did); returns how
  /// many. take_if_ready() then tells them apart.
  template <class Target>
  std::size_t remove_all_to_zeros(const Target* __restrict targets, std::size_t count, node_t* __restrict zeros) {
    return remove_all(targets, count, zeros);
  }
  /// Bit j: node 64*word + j has no predecessor left and is not retired.
  std::uint64_t ready_mask(std::size_t word) const { return bytes::zero_words(count_.data() + 64 * word); }
  /// v is handed out: never ready again.
  void retire(node_t v) { count_[v] = kRetired; }
  /// Retires v if it has no predecessor left and is not retired yet; true if so.
  bool take_if_ready(node_t v) {
    if (count_[v] != 0) return false;
    retire(v);
    return true;
  }
  /// Never: four bytes hold any in-degree.
  bool overflowed() const { return false; }
  /// Adds the counts of `other` (reset to the same n, nothing retired yet)
  /// for nodes 64*word_begin up to 64*word_end and below n.
  void absorb(const WideInDegrees& other, std::size_t word_begin, std::size_t word_end, node_t n) {
    const std::size_t end = std::min<std::size_t>(64 * word_end, n);
    for (std::size_t v = 64 * word_begin; v < end; ++v) count_[v] += other.count_[v];
  }

 private:
  static constexpr node_t kRetired = 1;
  Array<node_t> count_;
};

/// One byte a node, carrying into 16 more bits for hubs: counts below 2^24.
/// `High` is the carry's type; the tests narrow it to reach overflow cheaply.
template <class High = std::uint16_t>
class BasicNarrowInDegrees {
 public:
  void reset(node_t n) {
    const std::size_t padded = (std::size_t{n} + 63) / 64 * 64;
    low_.assign(padded, kRetired);
    std::fill_n(low_.begin(), n, 0);
    // Fresh zeroed memory, never written here: only hubs touch it, so the
    // pages of the rest are never faulted in: 2 bytes a node less memory
    // and page clearing (with the scatter's reserved bins: wide-l 2-thread
    // solve peak 588 -> 563 MB, page clearing 10.7% -> 2.8% in perf).
    high_.reset(static_cast<High*>(std::calloc(std::max<std::size_t>(n, 1), sizeof(High))));
    if (!high_) throw std::bad_alloc();
    heavy_.assign(padded / 64, 0);
    overflowed_ = false;
  }

  // Each operation is one step on the low bytes' address, passed in: the
  // bulk forms hold it in a local, because through the member every byte
  // stored could alias it (a char type) and the compiler reloaded it at each
  // edge, three times slower (docs/TUNING.md#in-degree-counters).
  void add(node_t v) { add_at(low_.data(), v); }
  bool remove(node_t v) { return remove_at(low_.data(), v); }
  void decrement(node_t v) { decrement_at(low_.data(), v); }

  template <class Target>
  void add_all(const Target* __restrict targets, std::size_t count) {
    std::uint8_t* const low = low_.data();
    for (std::size_t i = 0; i < count; ++i) add_at(low, static_cast<node_t>(targets[i]));
  }

  template <class Target>
  void decrement_all(const Target* __restrict targets, std::size_t count) {
    std::uint8_t* const low = low_.data();
    for (std::size_t i = 0; i < count; ++i) decrement_at(low, static_cast<node_t>(targets[i]));
  }

  /// remove() for each of targets[0, count), the counter Tuning::
  /// narrow_round_prefetch targets ahead asked for as each is counted down
  /// (a staged round's counters miss at random: docs/TUNING.md#narrow-rounds).
  template <class Target>
  std::size_t remove_all(const Target* __restrict targets, std::size_t count, node_t* __restrict ready) {
    return count_down_all<true>(targets, count, ready);
  }

  /// remove_all(), but writing every node whose low byte reached zero: the
  /// ready ones, and now and then a hub with a high part left (or the same
  /// hub twice), which take_if_ready() turns away. The hub check is then
  /// made once a node, off the decrements' path (docs/TUNING.md#paired-rounds).
  template <class Target>
  std::size_t remove_all_to_zeros(const Target* __restrict targets, std::size_t count, node_t* __restrict zeros) {
    return count_down_all<false>(targets, count, zeros);
  }

  /// Retires v if it has no predecessor left and is not retired yet; true if so.
  bool take_if_ready(node_t v) {
    if (low_[v] != 0 || (heavy(v) && high_[v] != 0)) return false;
    retire(v);
    return true;
  }

  std::uint64_t ready_mask(std::size_t word) const {
    std::uint64_t m = bytes::zero_bytes(low_.data() + 64 * word);
    // A hub's low byte is zero at every multiple of 256 on the way down.
    for (std::uint64_t h = m & heavy_[word]; h != 0; h &= h - 1) {
      const auto j = static_cast<unsigned>(std::countr_zero(h));
      if (high_[64 * word + j] != 0) m &= ~(std::uint64_t{1} << j);
    }
    return m;
  }

  void retire(node_t v) { low_[v] = kRetired; }

  /// True when some count reached 2^(8 + bits of High): the counts are wrong.
  bool overflowed() const { return overflowed_; }

  /// Adds the counts of `other` (reset to the same n, nothing retired yet)
  /// for nodes 64*word_begin up to 64*word_end and below n. Calls on
  /// disjoint word ranges may run at once.
  void absorb(const BasicNarrowInDegrees& other, std::size_t word_begin, std::size_t word_end, node_t n) {
    if (other.overflowed_) std::atomic_ref<bool>(overflowed_).store(true, std::memory_order_relaxed);
    constexpr std::uint64_t kHighBits = 0x8080808080808080ull;
    for (std::size_t w = word_begin; w < word_end; ++w) {
      std::uint8_t* const a = low_.data() + 64 * w;
      const std::uint8_t* const b = other.low_.data() + 64 * w;
      std::uint64_t x[8], y[8], high_bits = 0;
      std::memcpy(x, a, 64);
      std::memcpy(y, b, 64);
      for (unsigned i = 0; i < 8; ++i) high_bits |= (x[i] | y[i]) & kHighBits;
      // Bytes below 128 each: their sums stay in their bytes, eight at once.
      if (high_bits == 0 && (heavy_[w] | other.heavy_[w]) == 0 && 64 * w + 64 <= n) {
        for (unsigned i = 0; i < 8; ++i) x[i] += y[i];
        std::memcpy(a, x, 64);
        continue;
      }
      const std::size_t end = std::min<std::size_t>(64 * w + 64, n);
      for (std::size_t v = 64 * w; v < end; ++v) {
        const std::uint64_t total = count_of(static_cast<node_t>(v)) + other.count_of(static_cast<node_t>(v));
        low_[v] = static_cast<std::uint8_t>(total);
        if (total >> 8 == 0) continue;
        heavy_[w] |= std::uint64_t{1} << (v % 64);
        high_[v] = static_cast<High>(total >> 8);
        if (total >> 8 > std::numeric_limits<High>::max())
          std::atomic_ref<bool>(overflowed_).store(true, std::memory_order_relaxed);
      }
    }
  }

 private:
  static constexpr std::uint8_t kRetired = 1;

  bool heavy(node_t v) const { return (heavy_[v / 64] >> (v % 64)) & 1; }
  std::uint64_t count_of(node_t v) const { return low_[v] + (heavy(v) ? std::uint64_t{high_[v]} << 8 : 0); }

  void add_at(std::uint8_t* low, node_t v) {
    if (++low[v] == 0) [[unlikely]]
      carry(v);
  }

  void decrement_at(std::uint8_t* low, node_t v) {
    const std::uint8_t before = low[v];
    low[v] = static_cast<std::uint8_t>(before - 1);
    if (before == 0) [[unlikely]]
      borrow(v);
  }

  bool remove_at(std::uint8_t* low, node_t v) { return low_reached_zero_at(low, v) && (!heavy(v) || high_[v] == 0); }

  // The bulk countdowns: writes to `out` the nodes that reached zero
  // (Exact) or whose low byte did; returns how many.
  template <bool Exact, class Target>
  std::size_t count_down_all(const Target* __restrict targets, std::size_t count, node_t* __restrict out) {
    std::uint8_t* const low = low_.data();
    std::size_t k = 0;
    constexpr std::size_t ahead = Tuning::narrow_round_prefetch;
    for (std::size_t i = 0; i < count; ++i) {
      if (i + ahead < count) __builtin_prefetch(low + targets[i + ahead], 1);
      const auto v = static_cast<node_t>(targets[i]);
      if (Exact ? remove_at(low, v) : low_reached_zero_at(low, v)) out[k++] = v;
    }
    return k;
  }

  // Counts v down; true when its low byte reached zero.
  bool low_reached_zero_at(std::uint8_t* low, node_t v) {
    const std::uint8_t before = low[v];
    low[v] = static_cast<std::uint8_t>(before - 1);
    // Branches, not arithmetic: the usual answer (a count above 1) is
    // predicted and the next loads go ahead. Computing the answer as data
    // instead (and adding it to a tail) chained every decrement to the
    // previous one's miss: wide-l layering 1.2 s became 2.3 s.
    if (before > 1) [[likely]]
      return false;
    if (before == 0) {  // a hub borrowing from its high part: not zero
      borrow(v);
      return false;
    }
    return true;
  }

  [[gnu::noinline]] void borrow(node_t v) { --high_[v]; }

  [[gnu::noinline]] void carry(node_t v) {
    heavy_[v / 64] |= std::uint64_t{1} << (v % 64);
    // Carries of different ranges may run at once; the flag is their one
    // shared write (atomic_ref keeps the class movable).
    if (++high_[v] == 0) std::atomic_ref<bool>(overflowed_).store(true, std::memory_order_relaxed);
  }

  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  Array<std::uint8_t> low_;
  std::unique_ptr<High[], Free> high_;
  Array<std::uint64_t> heavy_;
  bool overflowed_ = false;
};

using NarrowInDegrees = BasicNarrowInDegrees<>;

}  // namespace grundy
