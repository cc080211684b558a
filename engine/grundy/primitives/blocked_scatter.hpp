// Parallel scatter without atomics: propagation blocking.
//
// Kahn's algorithm decrements the in-degree of every edge's target. Split
// between threads, those decrements need atomic read-modify-writes, which
// cost more than a second thread saves (docs/TUNING.md#blocked-scatter).
// Instead, each
// thread first appends the targets it meets to per-range bins (sequential
// writes), and then each range of 2^15 nodes (32 KiB of 1-byte in-degree
// counters, 128 KiB of 4-byte ones, and whole words of any per-node bitmap)
// is applied by one task at a time, with plain operations.
//
// Writing the bins: a bin stores its targets' low 15 bits (the range gives
// the rest), and is written a cache line at a time, from a line per bin
// that stays in L1, with non-temporal stores. A plain store to a bin's next
// line first read that line in: it was last written a whole bound of
// targets ago, out of every cache, and `perf annotate` put 61% of the
// counting loop's samples on that store.
//
// Memory: each bin holds at most its share of the bound it is given
// (layering's is 2^23 targets in all, 16 MiB of low bits), in whole
// lines. A thread whose bin fills
// applies it at once, under that range's lock, and goes on. The bound holds
// whatever the rows look like, even kron-l's rows of millions of
// successors (docs/TUNING.md#blocked-scatter gives the peaks and why 2^23).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/primitives/simd/stream_store.hpp"

namespace grundy {

class BlockedScatter {
 public:
  static constexpr unsigned kBinShift = 15;

  /// `threads`: how many may emit at once (the bins' memory is shared out
  /// between them; with one, run() never reaches oneTBB, as parallel.hpp
  /// promises); `pending_edges`: the bins' bound, all threads together.
  BlockedScatter(node_t n, unsigned threads, std::size_t pending_edges)
      : bins_count_((std::size_t{n} >> kBinShift) + 1),
        capacity_(round_up(std::max<std::size_t>(1, pending_edges / std::max(1u, threads) / bins_count_))),
        serial_(threads <= 1),
        locks_(std::make_unique<std::mutex[]>(bins_count_)) {}

  /// For each item i of [0, items), `emit(i, sink)` calls sink(v) for targets
  /// v (in parallel over items, `grain` at least a task); `apply(batch, count)` gets every emitted v
  /// once, in batches of one range, never two batches of one range at a
  /// time, and all have run on return. (Batches, not single targets: the
  /// callee can hold its arrays in registers across a batch.)
  template <class Emit, class Apply>
  void run(std::size_t items, std::size_t grain, const Emit& emit, const Apply& apply) {
    const auto emit_range = [&](std::size_t begin, std::size_t end) {
      trace::Span span("scatter emit", "scatter");
      span.merge_with_previous();
      Local& local = this->local();
      Slot* const stage = local.stage.data();
      std::uint32_t* const used = local.used.data();
      for (std::size_t i = begin; i < end; ++i)
        emit(i, [&](node_t v) {
          const std::size_t b = v >> kBinShift;
          const std::uint32_t p = used[b]++;
          stage[b * kLine + p % kLine] = static_cast<Slot>(v & kSlotMask);
          if (p % kLine == kLine - 1) [[unlikely]]
            spill(local, b, p + 1, apply);
        });
      fence();  // the streamed lines, before another thread reads them
    };
    // What is left of range b, from every thread's bins.
    const auto finish = [&](std::size_t b) {
      trace::Span span("scatter apply", "scatter");
      span.merge_with_previous();
      const auto drain = [&](Local& local) {
        if (local.used.empty() || local.used[b] == 0) return;
        const std::size_t count = local.used[b], whole = count / kLine * kLine;
        Slot* const bin = local.bins + b * capacity_;
        std::memcpy(bin + whole, local.stage.data() + b * kLine, (count - whole) * sizeof(Slot));
        unpack(b, bin, count, apply);
        local.used[b] = 0;
      };
      if (serial_) return drain(solo_);
      for (Local& local : per_thread_) drain(local);
    };
    if (serial_) {
      emit_range(0, items);
      for (std::size_t b = 0; b < bins_count_; ++b) finish(b);
      return;
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items, grain),
                      [&](const tbb::blocked_range<std::size_t>& r) { emit_range(r.begin(), r.end()); });
    tbb::parallel_for(std::size_t{0}, bins_count_, finish);  // each range by one task
  }

  /// Returns the bins' memory (the bound's worth of targets) until the next run().
  void release() {
    per_thread_.clear();
    solo_.clear();
  }

 private:
  // A bin holds its targets' low bits: the range gives the rest. Half the
  // bytes of whole ids to write out and read back.
  using Slot = std::uint16_t;
  static_assert(kBinShift <= 16);
  static constexpr node_t kSlotMask = (node_t{1} << kBinShift) - 1;
  /// Targets a cache line holds: the unit in which bins are written.
  static constexpr std::size_t kLine = 64 / sizeof(Slot);

  // A thread's bins: bin b is bins[b * capacity_, (b + 1) * capacity_),
  // filled a cache line at a time from its line in `stage`, and used[b]
  // targets long (the last, partial line still in `stage`).
  struct Local {
    Slot* bins = nullptr;  // never read before written: left uninitialized
    std::size_t bins_size = 0;
    Array<Slot> stage;
    std::vector<std::uint32_t> used;

    Local() = default;
    Local(const Local&) = delete;
    Local& operator=(const Local&) = delete;
    ~Local() { clear(); }
    void clear() {
      if (bins != nullptr) HugePageAllocator<Slot>().deallocate(bins, bins_size);
      bins = nullptr;
      bins_size = 0;
      stage = Array<Slot>();
      used = std::vector<std::uint32_t>();  // empty: made again on next use
    }
  };

  static std::size_t round_up(std::size_t count) { return (count + kLine - 1) / kLine * kLine; }

  Local& local() {
    Local& l = serial_ ? solo_ : per_thread_.local();
    if (l.used.empty()) {
      // Pages are touched only as bins fill: a skewed graph's idle bins,
      // or the tests' huge bounds, cost address space, not memory.
      l.bins_size = bins_count_ * capacity_;
      l.bins = HugePageAllocator<Slot>().allocate(l.bins_size);
      l.stage.resize(bins_count_ * kLine);
      l.used.assign(bins_count_, 0);
    }
    return l;
  }

  // Range b's slots back to whole ids, a cache-sized piece at a time, for apply.
  template <class Apply>
  static void unpack(std::size_t b, const Slot* slots, std::size_t count, const Apply& apply) {
    constexpr std::size_t kPiece = 2048;
    node_t ids[kPiece];
    const auto base = static_cast<node_t>(b << kBinShift);
    for (std::size_t at = 0; at < count; at += kPiece) {
      const std::size_t take = std::min(kPiece, count - at);
      for (std::size_t k = 0; k < take; ++k) ids[k] = base | slots[at + k];
      apply(static_cast<const node_t*>(ids), take);
    }
  }

  // Bin b's staged line is full (`count` targets in all): write it to the
  // bin, past the cache; a full bin is applied at once, under its range's
  // lock, and emptied.
  template <class Apply>
  [[gnu::noinline]] void spill(Local& local, std::size_t b, std::size_t count, const Apply& apply) {
    Slot* const bin = local.bins + b * capacity_;
    stream_line(bin + (count - kLine), local.stage.data() + b * kLine);
    if (count < capacity_) return;
    fence();
    const std::lock_guard<std::mutex> hold(locks_[b]);
    unpack(b, bin, count, apply);
    local.used[b] = 0;
  }

  // One cache line, with non-temporal stores where the target has them
  // (see the top of this header).
  static void stream_line(Slot* to, const Slot* from) { simd::stream_copy(to, from, kLine * sizeof(Slot)); }
  static void fence() { simd::stream_fence(); }

  std::size_t bins_count_;
  std::size_t capacity_;
  bool serial_;  // one thread: its bins are solo_, and no oneTBB loop runs
  std::unique_ptr<std::mutex[]> locks_;
  Local solo_;
  tbb::enumerable_thread_specific<Local> per_thread_;
};

}  // namespace grundy
