// SG values of every node, stored in 16 bits whenever that is provably enough.
//
// A node of SG value g has successors of every value below g, so the graph
// holds at least g(g+1)/2 edges. With fewer than 65536*65537/2 edges no value
// exceeds 65535: the narrow type halves the memory that the mex pass gathers
// from at random, which is what bounds its speed.
#pragma once

#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/huge_array.hpp"

namespace grundy {

using sg_t = std::uint32_t;  ///< an SG value, as the API exposes it

/// SG values viewed where they lie, 16 or 32 bits a value (the output
/// writers take the API's Values so: data() and width()).
using SgSpan = std::variant<std::span<const std::uint16_t>, std::span<const std::uint32_t>>;

class SgValues {
 public:
  /// True when no SG value of a graph with m edges reaches `limit` (the
  /// header's bound: a value g needs g(g+1)/2 edges).
  static constexpr bool values_below(edge_t m, edge_t limit) { return m < limit * (limit + 1) / 2; }
  /// True when every SG value of a graph with m edges fits 16 bits.
  static constexpr bool fits_narrow(edge_t m) { return values_below(m, 65536); }

  SgValues() = default;
  /// n zero values, 16-bit if `m` allows.
  SgValues(node_t n, edge_t m) { reset(n, m); }
  explicit SgValues(Array<sg_t> wide) : values_(std::move(wide)) {}

  /// n zero values again, reusing the storage when the width stays the same.
  void reset(node_t n, edge_t m) {
    if (fits_narrow(m)) {
      if (!std::holds_alternative<Array<std::uint16_t>>(values_)) values_ = Array<std::uint16_t>();
      std::get<Array<std::uint16_t>>(values_).assign(n, 0);
    } else {
      if (!std::holds_alternative<Array<std::uint32_t>>(values_)) values_ = Array<std::uint32_t>();
      std::get<Array<std::uint32_t>>(values_).assign(n, 0);
    }
  }

  std::size_t size() const {
    return std::visit([](const auto& v) { return v.size(); }, values_);
  }
  sg_t operator[](node_t u) const {
    return std::visit([u](const auto& v) { return static_cast<sg_t>(v[u]); }, values_);
  }
  /// Calls f with a std::span over the stored values (16- or 32-bit).
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit([&](auto& v) { return f(std::span(v)); }, values_);
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit([&](const auto& v) { return f(std::span(v)); }, values_);
  }
  std::vector<sg_t> to_vector() const {
    return visit([](auto s) { return std::vector<sg_t>(s.begin(), s.end()); });
  }

 private:
  std::variant<Array<std::uint16_t>, Array<std::uint32_t>> values_;
};

}  // namespace grundy
