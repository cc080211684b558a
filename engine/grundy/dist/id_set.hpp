// A set of node ids as a bitmap over all N ids, with each member's rank
// among the members (index) and back (id): a rank's ghosts, and the nodes
// gathered to rank 0. n bits plus a count per 64 ids, whatever the size.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/huge_array.hpp"

namespace grundy::dist {

class IdSet {
 public:
  IdSet() = default;
  explicit IdSet(std::uint64_t n) : bits_((n + 63) / 64, 0) {}

  /// Adds v; safe from several threads at once (before seal()).
  void add(node_t v) {
    std::atomic_ref<std::uint64_t>(bits_[v >> 6]).fetch_or(std::uint64_t{1} << (v & 63), std::memory_order_relaxed);
  }
  bool has(node_t v) const { return (bits_[v >> 6] >> (v & 63)) & 1; }
  /// Counts the members before each word: index() and id() work from here on.
  void seal() {
    before_.assign(bits_.size() + 1, 0);
    for (std::size_t w = 0; w < bits_.size(); ++w)
      before_[w + 1] = before_[w] + static_cast<node_t>(std::popcount(bits_[w]));
  }
  node_t count() const { return before_.empty() ? 0 : before_.back(); }
  /// The members below v (v's index, when v is one).
  node_t index(node_t v) const {
    const std::size_t w = v >> 6;
    return before_[w] + static_cast<node_t>(std::popcount(bits_[w] & ((std::uint64_t{1} << (v & 63)) - 1)));
  }
  /// The member of index i.
  node_t id(node_t i) const {
    const auto w = static_cast<std::size_t>(std::upper_bound(before_.begin(), before_.end(), i) - before_.begin()) - 1;
    std::uint64_t bits = bits_[w];
    for (node_t k = i - before_[w]; k > 0; --k) bits &= bits - 1;
    return static_cast<node_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
  }
  /// The members' 64-bit words (word w holds ids 64w..64w+63).
  const Array<std::uint64_t>& words() const { return bits_; }

 private:
  Array<std::uint64_t> bits_;
  Array<node_t> before_;
};

}  // namespace grundy::dist
