// Sorted ids (and small values beside them) as variable-length gaps: what
// the solve's exchanges carry. A round's ids bound for one rank are dense
// in its range, so a gap takes a byte or two where the id took four, and
// an SG value (almost always below 128) one.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/input_error.hpp"

namespace grundy::dist {

class PackedIds {
 public:
  /// Appends an id (at least the last one appended) and, when the part
  /// carries values, its value.
  void add(node_t id, std::uint32_t value = 0) {
    put(id - last_);
    last_ = id;
    if (with_values_) put(value);
    ++count_;
  }
  explicit PackedIds(bool with_values) : with_values_(with_values) {}

  /// The part as 32-bit words: the entry count, then the bytes.
  std::vector<std::uint32_t> words() const {
    std::vector<std::uint32_t> w(1 + (bytes_.size() + 3) / 4, 0);
    w[0] = count_;
    for (std::size_t i = 0; i < bytes_.size(); ++i) w[1 + i / 4] |= std::uint32_t{bytes_[i]} << (8 * (i % 4));
    return w;
  }

  /// Calls f(id, value) for every entry of a part made by words().
  template <class F>
  static void each(std::span<const std::uint32_t> words, bool with_values, const F& f) {
    if (words.empty()) return;
    const std::uint32_t count = words[0];
    std::size_t at = 0;  // byte index after the count
    const auto byte = [&]() -> std::uint32_t {
      const std::size_t w = 1 + at / 4;
      if (w >= words.size()) throw InputError("grundy-mpi: a packed message between ranks is cut short");
      const std::uint32_t b = (words[w] >> (8 * (at % 4))) & 0xff;
      ++at;
      return b;
    };
    const auto get = [&] {
      std::uint32_t v = 0;
      for (int shift = 0;; shift += 7) {
        const std::uint32_t b = byte();
        v |= (b & 0x7f) << shift;
        if (b < 0x80) return v;
      }
    };
    node_t id = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
      id += get();
      const std::uint32_t value = with_values ? get() : 0;
      f(id, value);
    }
  }

 private:
  void put(std::uint32_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<std::uint8_t>(v));
  }
  std::vector<std::uint8_t> bytes_;
  node_t last_ = 0;
  std::uint32_t count_ = 0;
  bool with_values_;
};

}  // namespace grundy::dist
