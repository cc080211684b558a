// Sorting node ids in ascending order by least-significant-digit radix: a
// Kahn round's new frontier is put in id order so that the next passes read
// rows in address order, and on graphs whose rounds are many and narrow
// (kron's) comparison sorting them was a sizeable part of the layering
// (docs/TUNING.md#radix-sorted-rounds).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "grundy/core/csr_graph.hpp"

namespace grundy {

/// Ids of fewer than this many a round are sorted by comparison: below it,
/// clearing and summing a pass's buckets costs more than the comparisons.
inline constexpr std::size_t kRadixSortFrom = 128;

/// Sorts ids[0, count), each below `bound`, ascending; `scratch` is grown to
/// `count` ids and may be reused from call to call.
inline void radix_sort_ids(node_t* ids, std::size_t count, std::size_t bound, std::vector<node_t>& scratch) {
  if (count < kRadixSortFrom) {
    std::sort(ids, ids + count);
    return;
  }
  constexpr unsigned kMaxDigit = 11;  // 2,048 buckets: 8 KiB of counts, in L1
  const unsigned bits = static_cast<unsigned>(std::bit_width(bound > 0 ? bound - 1 : 0));
  const unsigned passes = (bits + kMaxDigit - 1) / kMaxDigit;
  if (passes == 0) return;  // every id is 0
  const unsigned digit = (bits + passes - 1) / passes;
  const node_t mask = (node_t{1} << digit) - 1;
  if (scratch.size() < count) scratch.resize(count);
  std::uint32_t start[std::size_t{1} << kMaxDigit];
  node_t* from = ids;
  node_t* to = scratch.data();
  for (unsigned pass = 0, shift = 0; pass < passes; ++pass, shift += digit) {
    std::fill(start, start + mask + 1, 0u);
    for (std::size_t i = 0; i < count; ++i) ++start[(from[i] >> shift) & mask];
    std::uint32_t sum = 0;
    for (node_t d = 0; d <= mask; ++d) sum += std::exchange(start[d], sum);
    for (std::size_t i = 0; i < count; ++i) to[start[(from[i] >> shift) & mask]++] = from[i];
    std::swap(from, to);
  }
  if (from != ids) std::copy(from, from + count, ids);
}

}  // namespace grundy
