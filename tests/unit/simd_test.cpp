// Each SIMD kernel of primitives/simd/ against its portable twin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "grundy/primitives/simd/byte_masks.hpp"
#include "grundy/primitives/simd/pair_split.hpp"
#include "grundy/primitives/simd/parse4.hpp"
#include "grundy/primitives/simd/stream_store.hpp"

namespace grundy {
namespace {

TEST(Simd, Parse4AgreesWithItsPortableTwin) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    std::string block(64 + 16, ' ');
    std::uint64_t first[4], last[4];
    std::size_t at = rng() % 3;
    for (unsigned j = 0; j < 4; ++j) {
      const unsigned len = 1 + rng() % 8;
      first[j] = at;
      for (unsigned d = 0; d < len; ++d) block[at + d] = static_cast<char>('0' + rng() % 10);
      last[j] = at + len - 1;
      at += len + 1 + rng() % 3;
    }
    const std::uint64_t base = rng() % 2;
    std::uint32_t fast[4], plain[4];
    simd::Worst4 fast_worst, plain_worst;
    simd::parse4(block.data(), first, last, base, fast, fast_worst);
    simd::parse4_portable(block.data(), first, last, base, plain, plain_worst);
    ASSERT_EQ(std::memcmp(fast, plain, sizeof fast), 0) << block;
    ASSERT_EQ(simd::max_lane(fast_worst), simd::max_lane(plain_worst)) << block;
    for (unsigned j = 0; j < 4; ++j)
      ASSERT_EQ(fast[j], static_cast<std::uint32_t>(std::stoull(block.substr(first[j], last[j] - first[j] + 1)) - base))
          << block;
  }
}

// Sources that repeat, step, fall and tie with their targets, and
// `before` on either side of the first.
TEST(Simd, PairSplitAgreesWithItsPortableTwin) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20000; ++trial) {
    std::uint32_t pairs[16];
    std::uint32_t s = static_cast<std::uint32_t>(rng() % 6);
    for (unsigned i = 0; i < 8; ++i) {
      if (rng() % 3 == 0) s += static_cast<std::uint32_t>(rng() % 3);
      if (trial % 5 == 0 && rng() % 8 == 0) s = static_cast<std::uint32_t>(rng() % 6);  // a fall
      pairs[2 * i] = s;
      pairs[2 * i + 1] = static_cast<std::uint32_t>(rng() % 8);
    }
    const std::uint32_t before = trial % 7 == 0 ? ~std::uint32_t{0} : static_cast<std::uint32_t>(rng() % 6);
    std::uint32_t fast[8], plain[8];
    const simd::PairsFound f = simd::split_pairs8(pairs, before, fast);
    const simd::PairsFound g = simd::split_pairs_portable(pairs, 8, before, plain);
    ASSERT_EQ(std::memcmp(fast, plain, sizeof fast), 0) << trial;
    ASSERT_EQ(f.loops, g.loops) << trial;
    ASSERT_EQ(f.ordered, g.ordered) << trial;
  }
}

TEST(Simd, StreamCopyAgreesWithItsPortableTwin) {
  alignas(64) std::uint16_t from[64], fast[64], plain[64];
  for (unsigned i = 0; i < 64; ++i) from[i] = static_cast<std::uint16_t>(i * 2654435761u);
  simd::stream_copy(fast, from, sizeof from);
  simd::stream_fence();
  simd::stream_copy_portable(plain, from, sizeof from);
  EXPECT_EQ(std::memcmp(fast, plain, sizeof fast), 0);
}

}  // namespace
}  // namespace grundy

// next_events against a walk bit by bit: for each bit of `from` (and bit -1
// with the carry), the first bit of `events` above it.
TEST(Simd, NextEventsFindTheEventAfterEachBit) {
  std::mt19937_64 rng(3);
  for (unsigned round = 0; round < 20000; ++round) {
    const std::uint64_t events = rng() & rng() & (round % 2 ? rng() : ~std::uint64_t{0});
    const std::uint64_t from = events & rng();
    const bool carry = rng() % 2;
    std::uint64_t want = 0;
    for (int b = -1; b < 64; ++b) {
      if (b == -1 ? !carry : ((from >> b) & 1) == 0) continue;
      for (int x = b + 1; x < 64; ++x)
        if ((events >> x) & 1) {
          want |= std::uint64_t{1} << x;
          break;
        }
    }
    ASSERT_EQ(grundy::bytes::next_events(from, events, carry), want) << round;
  }
}
