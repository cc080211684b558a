// radix_sort_ids against std::sort: every count around the radix bar, id
// bounds of one digit to the full 32 bits, duplicates, and a reused buffer.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "grundy/primitives/radix_sort.hpp"

namespace grundy {
namespace {

TEST(RadixSort, SortsAsStdSortForEveryBoundAndCount) {
  std::mt19937_64 rng(5);
  std::vector<node_t> scratch;  // reused across calls, as a layering does
  const std::size_t bounds[] = {1,
                                2,
                                3,
                                1000,
                                2048,
                                2049,
                                std::size_t{1} << 20,
                                (std::size_t{1} << 22) + 7,
                                std::size_t{std::numeric_limits<node_t>::max()} + 1};
  const std::size_t counts[] = {0, 1, 2, kRadixSortFrom - 1, kRadixSortFrom, kRadixSortFrom + 1, 1000, 5000};
  for (const std::size_t bound : bounds)
    for (const std::size_t count : counts) {
      std::vector<node_t> ids(count);
      for (node_t& v : ids) v = static_cast<node_t>(rng() % bound);
      std::vector<node_t> want = ids;
      std::sort(want.begin(), want.end());
      radix_sort_ids(ids.data(), ids.size(), bound, scratch);
      ASSERT_EQ(ids, want) << count << " ids below " << bound;
    }
}

TEST(RadixSort, KeepsTheIdsAroundTheSortedRange) {
  std::vector<node_t> ids(600);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<node_t>((i * 7919) % 600);
  std::vector<node_t> want = ids;
  std::sort(want.begin() + 50, want.end() - 50);
  std::vector<node_t> scratch(1, 99);
  radix_sort_ids(ids.data() + 50, ids.size() - 100, 600, scratch);
  EXPECT_EQ(ids, want);
}

}  // namespace
}  // namespace grundy
