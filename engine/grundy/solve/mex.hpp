// The minimum excludant (mex) of a node's successors' SG values.
//
// Two implementations with one contract: StampMex, plain and obviously
// right, for the reference solvers; BitsetMex, the fast path of the parallel
// engine. Both use that the mex of d values is at most d, so values above
// the out-degree never need to be recorded.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// mark[x] == stamp means "x seen at the current node"; each call takes a
/// fresh stamp instead of clearing, so a call costs O(degree).
class StampMex {
 public:
  explicit StampMex(edge_t max_degree) : mark_(max_degree + 1, 0) {}

  template <class Sg, class Target>
  Sg operator()(std::span<const Target> successors, const Sg* sg) {
    ++stamp_;  // at most one call per node: node_t never wraps
    const std::size_t d = successors.size();
    for (const Target v : successors)
      if (sg[v] <= d) mark_[sg[v]] = stamp_;
    Sg x = 0;
    while (mark_[x] == stamp_) ++x;
    return x;
  }

 private:
  std::vector<node_t> mark_;
  node_t stamp_ = 0;
};

/// The fast path's bit for value s: bit s, or none past 63 (with fewer
/// than 64 successors, such a value cannot be the mex's concern). Branch-free.
inline std::uint64_t mex_bit(unsigned s) { return static_cast<std::uint64_t>(s < 64) << (s & 63); }

/// The bits of exactly D successors, unrolled: no loop counter, no exit.
template <std::size_t D, class Sg, class Target>
std::uint64_t mex_bits_fixed(const Target* succ, const Sg* sg) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return (std::uint64_t{0} | ... | mex_bit(sg[succ[I]])); }
  (std::make_index_sequence<D>{});
}

/// The fast path, for fewer than Tuning::word_mex_degrees successors: every value that matters
/// fits one machine word, so set a bit per value and count the trailing ones.
/// Below Tuning::unrolled_degrees successors, an unrolled body per degree, called
/// through a table: where degrees repeat node after node that call is
/// predicted, and each edge costs its two loads, the bit and the OR, about
/// half the micro-ops of a loop iteration, so that more of the next nodes'
/// misses fit in flight. Random ids gain nothing from it: their degree
/// changes each node, and a mispredicted call costs what a mispredicted
/// loop exit did (docs/TUNING.md#mex-unrolled-bodies).
template <class Sg, class Target>
inline Sg mex_word(const Target* succ, std::size_t d, const Sg* sg) {
  static constexpr auto fixed = []<std::size_t... D>(std::index_sequence<D...>) {
    return std::array<std::uint64_t (*)(const Target*, const Sg*), sizeof...(D)>{&mex_bits_fixed<D, Sg, Target>...};
  }
  (std::make_index_sequence<Tuning::unrolled_degrees>{});
  std::uint64_t seen = 0;
  if (d < Tuning::unrolled_degrees) {
    seen = fixed[d](succ, sg);
  } else {
    for (std::size_t i = 0; i < d; ++i) seen |= mex_bit(sg[succ[i]]);
  }
  return static_cast<Sg>(std::countr_one(seen));
}

/// The mex of succ[0..d) read as exactly Tuning::masked_slots slots
/// (d <= masked_slots; the slots past d exist and are ignored), for graphs
/// in cache with random ids: the same body for every degree, so degrees that
/// vary node after node mispredict nothing. A load a slot: an AVX2 gather of
/// the slots cost more than its loads on an Intel host (Ice Lake under KVM)
/// (docs/TUNING.md#masked-mex).
template <class Sg, class Target>
inline Sg mex_masked(const Target* succ, std::size_t d, const Sg* sg) {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < Tuning::masked_slots; ++i) seen |= mex_bit(i < d ? sg[succ[i]] : 64);
  return static_cast<Sg>(std::countr_one(seen));
}

/// Nodes b..i-1 of a layered file (ids in order, rows side by side), taken
/// from i-1 down for as long as their out-degree is D: returns where the run
/// stopped. One unrolled body per run of equal degrees, where mex_word
/// makes a call through its table per node.
template <std::size_t D, class Sg, class Target>
std::size_t mex_run_down(const edge_t* off, const Target* targets, Sg* sg, std::size_t b, std::size_t i) {
  for (; i > b && off[i] - off[i - 1] == D; --i)
    sg[i - 1] = static_cast<Sg>(std::countr_one(mex_bits_fixed<D, Sg, Target>(targets + off[i - 1], sg)));
  return i;
}

/// The mex of every node of ids [b, e) of a layered file, from e-1 down
/// (deeper layers first). Runs of equal out-degree below Tuning::unrolled_degrees go
/// through mex_run_down, each choosing its body once (layered files order
/// each layer by out-degree, so runs are long); other nodes one at a time.
template <class Sg, class Mex, class Target>
void mex_identity_down(const edge_t* off, const Target* targets, Sg* sg, Mex& mex, std::size_t b, std::size_t e) {
  static constexpr auto runs = []<std::size_t... D>(std::index_sequence<D...>) {
    return std::array<std::size_t (*)(const edge_t*, const Target*, Sg*, std::size_t, std::size_t), sizeof...(D)>{
        &mex_run_down<D, Sg, Target>...};
  }
  (std::make_index_sequence<Tuning::unrolled_degrees>{});
  for (std::size_t i = e; i > b;) {
    const auto d = static_cast<std::size_t>(off[i] - off[i - 1]);
    if (d < Tuning::unrolled_degrees) {
      i = runs[d](off, targets, sg, b, i);
    } else {
      --i;
      sg[i] = mex(targets + off[i], d, sg);
    }
  }
}

/// Nodes b..e-1 of one degree run of D successors (StoredLayers), whose rows
/// lie side by side from `rows` (node b's): taken from e-1 down, each row
/// found by stride, with no offset read and no exit test per node.
template <std::size_t D, class Sg, class Target>
void mex_stride_down(const Target* rows, Sg* sg, std::size_t b, std::size_t e) {
  for (std::size_t i = e; i > b; --i)
    sg[i - 1] = static_cast<Sg>(std::countr_one(mex_bits_fixed<D, Sg, Target>(rows + (i - 1 - b) * D, sg)));
}

/// The mex of every node of ids [b, e) of a layered file with degree runs
/// (StoredLayers: run r is ids [runs[r], runs[r+1]), one out-degree), from
/// e-1 down. Each run (clipped to [b, e)) reads two offsets, then goes by
/// stride: below Tuning::unrolled_degrees, one unrolled body for the whole run.
template <class Sg, class Mex, class Target>
void mex_runs_down(std::span<const node_t> runs, const edge_t* off, const Target* targets, Sg* sg, Mex& mex,
                   std::size_t b, std::size_t e) {
  static constexpr auto strides = []<std::size_t... D>(std::index_sequence<D...>) {
    return std::array<void (*)(const Target*, Sg*, std::size_t, std::size_t), sizeof...(D)>{
        &mex_stride_down<D, Sg, Target>...};
  }
  (std::make_index_sequence<Tuning::unrolled_degrees>{});
  if (b >= e) return;
  // The run holding node e-1.
  auto r = static_cast<std::size_t>(std::upper_bound(runs.begin(), runs.end(), e - 1) - runs.begin()) - 1;
  for (std::size_t i = e; i > b; --r) {
    const std::size_t first = std::max<std::size_t>(runs[r], b);
    const Target* const rows = targets + off[first];
    const auto d = static_cast<std::size_t>(off[first + 1] - off[first]);
    if (d < Tuning::unrolled_degrees) {
      strides[d](rows, sg, first, i);
    } else {
      for (std::size_t u = i; u-- > first;) sg[u] = mex(rows + (u - first) * d, d, sg);
    }
    i = first;
  }
}

/// mex_word below Tuning::word_mex_degrees (64) successors; above, a bitset of degree+1 bits from a
/// reusable buffer, cleared word by word afterwards. The wide path stays out
/// of line so that the loop around the fast path stays small.
class BitsetMex {
 public:
  template <class Sg, class Target>
  Sg operator()(const Target* succ, std::size_t d, const Sg* sg) {
    return d < Tuning::word_mex_degrees ? mex_word(succ, d, sg) : wide(succ, d, sg);
  }

  /// The same, each value read by get(v) (the dataflow pass's reads: sg is
  /// then only prefetched); no unrolled bodies.
  template <class Sg, class Target, class Get>
  Sg read_through(const Target* succ, std::size_t d, const Sg* sg, const Get& get) {
    if (d >= Tuning::word_mex_degrees) return wide_through(succ, d, sg, get);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < d; ++i) seen |= mex_bit(get(succ[i]));
    return static_cast<Sg>(std::countr_one(seen));
  }

  template <class Sg, class Target>
  [[gnu::noinline]] Sg wide(const Target* succ, std::size_t d, const Sg* sg) {
    return wide_through(succ, d, sg, [sg](node_t v) { return sg[v]; });
  }

 private:
  template <class Sg, class Target, class Get>
  Sg wide_through(const Target* succ, std::size_t d, const Sg* sg, const Get& get) {
    const std::size_t words = d / 64 + 1;  // bits 0..d
    if (bits_.size() < words) bits_.resize(words, 0);
    const auto mark = [&](std::size_t i) {
      const std::size_t s = get(succ[i]);
      if (s <= d) bits_[s / 64] |= std::uint64_t{1} << (s % 64);
    };
    // The values Tuning::wide_mex_prefetch successors ahead are asked for
    // as each is marked: more misses in flight than the loop alone keeps.
    constexpr std::size_t ahead = Tuning::wide_mex_prefetch;
    std::size_t i = 0;
    for (; i + ahead < d; ++i) {
      __builtin_prefetch(sg + succ[i + ahead]);
      mark(i);
    }
    for (; i < d; ++i) mark(i);
    std::size_t w = 0;
    while (bits_[w] == ~std::uint64_t{0}) ++w;  // word d/64 always has a zero
    const auto x = static_cast<Sg>(w * 64 + static_cast<std::size_t>(std::countr_one(bits_[w])));
    std::fill_n(bits_.begin(), words, 0);
    return x;
  }

  std::vector<std::uint64_t> bits_;
};

}  // namespace grundy
