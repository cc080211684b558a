// Parallel scatter without atomics: propagation blocking.
//
// Kahn's algorithm decrements the in-degree of every edge's target. Split
// between threads, those decrements need atomic read-modify-writes, which
// measured 4.8x slower than plain ones here (10^7 random decrements: 124 ms
// against 26 ms on one thread), so two threads lost to one. Instead, each
// thread first appends the targets it meets to per-range bins (sequential
// writes), and then each range of 2^15 nodes (32 KiB of 1-byte in-degree
// counters, 128 KiB of 4-byte ones, and whole words of any per-node bitmap)
// is applied by one task at a time, with plain operations.
//
// Memory: the bins of all threads together hold at most kPendingEdges
// targets (2^23, 32 MiB). A thread whose bins reach its share applies them
// itself, range by range, each under that range's lock, and goes on. The
// bound holds whatever the rows look like: it used to come from cutting the
// items into slices of kPendingEdges / (mean degree), and on kron-l (rows of
// up to millions of successors) a 2-thread solve peaked at 724 MB, 190 MB
// above the 1-thread one; now 567 MB (`/usr/bin/time grundy solve`), 13 B a
// node beyond the 467 MB mapping. The price: wide-l layering on 2 threads,
// min of 5 interleaved runs, 605 ms against 584 with slices. The bound's
// size was measured with those slices: on a 10^7-node solve, 2^24 targets
// peaked 40 MB higher (4 bytes a node, against a budget of the mapping plus
// 16 bytes a node) in the same time; 2^22 measured ~10% slower.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "grundy/csr_graph.hpp"

namespace grundy {

class BlockedScatter {
 public:
  static constexpr unsigned kBinShift = 15;
  static constexpr std::size_t kPendingEdges = std::size_t{1} << 23;

  /// `threads`: how many may emit at once (the bins' memory is shared out
  /// between them); `pending_edges`: the bins' bound (the tests lower it).
  BlockedScatter(node_t n, unsigned threads, std::size_t pending_edges = kPendingEdges)
      : bins_count_((std::size_t{n} >> kBinShift) + 1),
        share_(std::max<std::size_t>(1, pending_edges / std::max(1u, threads))),
        locks_(std::make_unique<std::mutex[]>(bins_count_)) {}

  /// For each item i of [0, items), `emit(i, sink)` calls sink(v) for targets
  /// v (in parallel over items, `grain` at least a task); `apply(batch, count)` gets every emitted v
  /// once, in batches of one range, never two batches of one range at a
  /// time, and all have run on return. (Batches, not single targets: the
  /// callee can hold its arrays in registers across a batch.)
  template <class Emit, class Apply>
  void run(std::size_t items, std::size_t grain, const Emit& emit, const Apply& apply) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items, grain),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        Local& local = this->local();
                        for (std::size_t i = r.begin(); i < r.end(); ++i)
                          emit(i, [&](node_t v) {
                            local.bins[v >> kBinShift].push_back(v);
                            if (++local.pending == share_) [[unlikely]]
                              flush(local, apply);
                          });
                      });
    // What is left: each range by one task, from every thread's bins.
    tbb::parallel_for(std::size_t{0}, bins_count_, [&](std::size_t b) {
      for (Local& local : per_thread_)
        if (!local.bins.empty() && !local.bins[b].empty()) {
          apply(static_cast<const node_t*>(local.bins[b].data()), local.bins[b].size());
          local.bins[b].clear();
        }
    });
    for (Local& local : per_thread_) local.pending = 0;
  }

  /// Returns the bins' memory (up to twice kPendingEdges targets, with the
  /// vectors' growth) until the next run().
  void release() { per_thread_.clear(); }

 private:
  struct Local {
    std::vector<std::vector<node_t>> bins;
    std::size_t pending = 0;
  };

  // A thread's bins, each reserved for its even part of the thread's share,
  // instead of grown by doubling (a new allocation and a copy each time).
  // With the carry parts' lazy zeroing (indegree_counters.hpp), this took
  // the kernel's page clearing from 10.7% to 2.8% of a 2-thread wide-l
  // solve (perf record -e cpu-clock) and its layering from 693 to 613 ms
  // (min of 4 interleaved runs).
  Local& local() {
    Local& l = per_thread_.local();
    if (l.bins.empty()) {
      l.bins.resize(bins_count_);
      for (auto& bin : l.bins) bin.reserve(share_ / bins_count_ + share_ / bins_count_ / 4);
    }
    return l;
  }

  // Applies one thread's bins while others emit (and may flush too: with
  // balanced work they fill up together). Ranges another thread holds are
  // skipped and taken on a second round, so that two flushes do not queue
  // behind each other range after range.
  template <class Apply>
  [[gnu::noinline]] void flush(Local& local, const Apply& apply) {
    const auto drain = [&](std::size_t b) {
      apply(static_cast<const node_t*>(local.bins[b].data()), local.bins[b].size());
      local.bins[b].clear();
    };
    bool skipped = false;
    for (std::size_t b = 0; b < bins_count_; ++b) {
      if (local.bins[b].empty()) continue;
      std::unique_lock<std::mutex> hold(locks_[b], std::try_to_lock);
      if (hold.owns_lock()) {
        drain(b);
      } else {
        skipped = true;
      }
    }
    for (std::size_t b = 0; skipped && b < bins_count_; ++b) {
      if (local.bins[b].empty()) continue;
      const std::lock_guard<std::mutex> hold(locks_[b]);
      drain(b);
    }
    local.pending = 0;
  }

  std::size_t bins_count_;
  std::size_t share_;
  std::unique_ptr<std::mutex[]> locks_;
  tbb::enumerable_thread_specific<Local> per_thread_;
};

}  // namespace grundy
