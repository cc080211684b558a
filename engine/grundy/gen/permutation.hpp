// A seeded random permutation of [0, n) computed element by element.
//
// Generators shuffle node ids so that id order is not topological. A
// Fisher-Yates shuffle is serial and needs an array; this is a 4-round
// Feistel network over mixed radices: x in [0, a*b) is the pair (x / b,
// x % b) with a = ceil(sqrt(n)), b = ceil(n / a), and each round adds a keyed
// hash of one half to the other, modulo that half's radix. Since a*b < n + a,
// a result >= n (walked on by applying the network again) is rare, so the
// usual power-of-two Feistel's mispredicted walks disappear. Both directions
// are O(1) per element, so any thread can map any rank and the thread count
// changes nothing in the result.
//
// Everything fits 32-bit lanes (n < 2^32, so a, b <= 2^16), which lets
// apply() run as SIMD over a batch: 4.2 ns an element against 13.9 one at
// a time (`grundy_kernels --benchmark_filter=Permutation`, x86-64-v3 build,
// results/kernels.json). Per element, the network was the larger part of
// what a generated edge cost.
#pragma once

#include <cstddef>
#include <cstdint>

namespace grundy {

/// SplitMix64's finalizer: the generator's one mixing function (mix() in
/// generator.hpp feeds it a seed, stream and index; the permutation its keys).
inline std::uint64_t splitmix_finalize(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Permutation {
 public:
  /// n < 2^32.
  Permutation(std::uint64_t n, std::uint64_t seed) : n_(static_cast<std::uint32_t>(n)) {
    std::uint64_t a = 1;
    while (a * a < n) ++a;  // ceil(sqrt(n)): at most 65536
    a_ = static_cast<std::uint32_t>(a);
    b_ = n == 0 ? 1 : static_cast<std::uint32_t>((n + a - 1) / a);
    // floor(2^32 / b), capped for b = 1: split() corrects the one step it may be short.
    inv_b_ = b_ == 1 ? ~std::uint32_t{0} : static_cast<std::uint32_t>((std::uint64_t{1} << 32) / b_);
    for (int i = 0; i < kRounds; ++i)
      key_[i] = static_cast<std::uint32_t>(splitmix_finalize(seed + 0x632BE59BD9B4E019ull * (i + 1)) >> 32);
  }

  /// The image of x (x < n).
  std::uint64_t operator()(std::uint64_t x) const {
    auto y = static_cast<std::uint32_t>(x);
    do y = forward(y);
    while (y >= n_);
    return y;
  }
  /// The x with (*this)(x) == y (y < n).
  std::uint64_t inverse(std::uint64_t y) const {
    auto x = static_cast<std::uint32_t>(y);
    do x = backward(x);
    while (x >= n_);
    return x;
  }
  /// x[k] = (*this)(x[k]) for each k < count (every x[k] < n): one pass the
  /// compiler vectorizes, then the rare walks.
  void apply(std::uint32_t* x, std::size_t count) const {
    for (std::size_t k = 0; k < count; ++k) x[k] = forward(x[k]);
    for (std::size_t k = 0; k < count; ++k)
      while (x[k] >= n_) x[k] = forward(x[k]);
  }
  /// x[k] = inverse(x[k]) for each k < count, as apply().
  void apply_inverse(std::uint32_t* x, std::size_t count) const {
    for (std::size_t k = 0; k < count; ++k) x[k] = backward(x[k]);
    for (std::size_t k = 0; k < count; ++k)
      while (x[k] >= n_) x[k] = backward(x[k]);
  }

 private:
  static constexpr int kRounds = 4;

  static std::uint32_t mulhi(std::uint32_t x, std::uint32_t y) {
    return static_cast<std::uint32_t>((std::uint64_t{x} * y) >> 32);
  }
  // Keyed hash of `half` (a murmur3-style finalizer), reduced to [0, radix)
  // by a multiply-high.
  std::uint32_t round(int i, std::uint32_t half, std::uint32_t radix) const {
    std::uint32_t z = (half ^ key_[i]) * 0x9E3779B1u;
    z ^= z >> 16;
    z *= 0x85EBCA6Bu;
    z ^= z >> 13;
    return mulhi(z, radix);
  }
  // x -> (x / b, x % b): the multiply-high quotient is exact or one short.
  void split(std::uint32_t x, std::uint32_t& hi, std::uint32_t& lo) const {
    hi = mulhi(x, inv_b_);
    lo = x - hi * b_;
    const bool short_one = lo >= b_;
    hi += short_one;
    lo -= short_one ? b_ : 0;
  }
  // Round i maps (l in Z_p, r in Z_q) to (r, (l + F(r)) mod p): the radices
  // swap every round, and after an even number of rounds are (a, b) again.
  std::uint32_t forward(std::uint32_t x) const {
    std::uint32_t l, r;
    split(x, l, r);
    for (int i = 0; i < kRounds; ++i) {
      const std::uint32_t p = i % 2 == 0 ? a_ : b_;
      std::uint32_t t = l + round(i, r, p);
      t -= t >= p ? p : 0;
      l = r;
      r = t;
    }
    return l * b_ + r;
  }
  std::uint32_t backward(std::uint32_t y) const {
    std::uint32_t l, r;
    split(y, l, r);
    for (int i = kRounds; i-- > 0;) {
      const std::uint32_t p = i % 2 == 0 ? a_ : b_;
      const std::uint32_t f = round(i, l, p);
      const std::uint32_t prev_l = r + (r < f ? p : 0) - f;
      r = l;
      l = prev_l;
    }
    return l * b_ + r;
  }

  std::uint32_t n_;
  std::uint32_t a_ = 1, b_ = 1, inv_b_ = 0;
  std::uint32_t key_[kRounds]{};
};

}  // namespace grundy
