// csr_from_pairs against build_csr, the serial counting sort: the same rows
// in the same order and the same first self-loop, for pairs grouped by
// source (gaps, empty first and last rows, repeated edges, more edges than
// the in-place move's phases start from) and not, at every thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "grundy/formats/csr_from_pairs.hpp"
#include "grundy/primitives/arena.hpp"
#include "sanitized.hpp"

namespace grundy {
namespace {

void expect_same_rows(node_t n, const std::vector<node_t>& pairs, unsigned threads, const char* what) {
  OwnedGame want, got;
  const auto want_loop = build_csr(n, pairs, want);
  // The pairs in an array of their own, with ids past them (a text's tokens)
  // that the rows must not take; `got` holds an old graph's targets.
  UnzeroedArray<node_t> storage(pairs.begin(), pairs.end());
  storage.insert(storage.end(), {7, 7, 7});
  got.targets.assign(5, 1);
  const std::size_t m = pairs.size() / 2;
  const auto got_loop = in_arena(threads, [&] { return csr_from_pairs(n, m, storage, got, {threads}); });
  ASSERT_EQ(got.n, want.n) << what;
  ASSERT_EQ(got.offsets, want.offsets) << what << ", " << threads << " threads";
  ASSERT_EQ(got.targets, want.targets) << what << ", " << threads << " threads";
  ASSERT_EQ(got_loop.has_value(), want_loop.has_value()) << what << ", " << threads << " threads";
  if (want_loop) {
    EXPECT_EQ(got_loop->edge, *want_loop) << what << ", " << threads << " threads";
    EXPECT_EQ(got_loop->node, pairs[2 * *want_loop]) << what << ", " << threads << " threads";
    EXPECT_EQ(got_loop->node, pairs[2 * *want_loop + 1]) << what << ", " << threads << " threads";
  }
  // Either the pairs' storage became the targets and `storage` got the old
  // ones, or (the counting sort) `storage` was left as it was.
  if (storage.size() == 5) {
    EXPECT_EQ(storage, (UnzeroedArray<node_t>(5, 1))) << what;
  } else {
    ASSERT_EQ(storage.size(), pairs.size() + 3) << what;
    EXPECT_TRUE(std::equal(pairs.begin(), pairs.end(), storage.begin())) << what;
  }
}

TEST(CsrFromPairs, TheCountingSortsRowsInEveryOrder) {
  std::mt19937 rng(9);
  // Under a sanitizer, 10 large rounds instead of 30.
  const unsigned rounds = test_support::kSanitized ? 40 : 60;
  for (unsigned round = 0; round < rounds; ++round) {
    const node_t n = 1 + rng() % (round < 30 ? 50 : 200000);
    const std::size_t m = rng() % (round < 30 ? 200 : 300000);  // up to the move's third parallel phase
    std::vector<std::pair<node_t, node_t>> edges(m);
    for (auto& [s, t] : edges) {
      s = static_cast<node_t>(rng() % n);
      t = static_cast<node_t>(rng() % n);
      if (s == t && round % 3 != 0) t = (t + 1) % n == s ? t : (t + 1) % n;  // self-loops in a third of the rounds
    }
    std::stable_sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<node_t> pairs;
    for (const auto& [s, t] : edges) pairs.insert(pairs.end(), {s, t});
    for (unsigned threads : {1u, 2u, 4u}) expect_same_rows(n, pairs, threads, "grouped");
    if (m > 1) {  // one edge out of place: the counting sort takes over
      const std::size_t at = 1 + rng() % (m - 1);
      std::swap(pairs[0], pairs[2 * at]);
      std::swap(pairs[1], pairs[2 * at + 1]);
      for (unsigned threads : {1u, 2u, 4u}) expect_same_rows(n, pairs, threads, "one swap");
      std::shuffle(edges.begin(), edges.end(), rng);
      pairs.clear();
      for (const auto& [s, t] : edges) pairs.insert(pairs.end(), {s, t});
      for (unsigned threads : {1u, 2u}) expect_same_rows(n, pairs, threads, "shuffled");
    }
  }
  // Rows longer than a block of edges (2^16): a row starts blocks before
  // the one it ends in, and blocks hold nothing but the middle of one row.
  for (const node_t n : {1u, 3u, 7u}) {
    std::vector<node_t> pairs;
    for (node_t s = 0; s < n; s += 2)  // every other row empty
      for (std::size_t i = 0; i < 150000; ++i) pairs.insert(pairs.end(), {s, static_cast<node_t>((s + 1 + i) % n)});
    for (unsigned threads : {1u, 2u, 4u}) expect_same_rows(n, pairs, threads, "rows past a block");
  }
  expect_same_rows(5, {}, 2, "no edges");
  expect_same_rows(1, {0, 0}, 2, "one self-loop");
}

}  // namespace
}  // namespace grundy
