#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "presets.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/gen/permutation.hpp"
#include "grundy/solve/serial_solver.hpp"

namespace grundy {
namespace {

constexpr Shape kAll[] = {Shape::uniform,  Shape::layered,    Shape::chain,
                          Shape::powerlaw, Shape::tournament, Shape::kron};

bool same(const OwnedGame& a, const OwnedGame& b) {
  return a.n == b.n && a.offsets == b.offsets && a.targets == b.targets && a.tokens == b.tokens;
}

TEST(Permutation, IsABijectionWithItsInverse) {
  for (std::uint64_t n : {1u, 2u, 3u, 7u, 64u, 1000u, 4097u}) {
    const Permutation p(n, n * 31);
    std::set<std::uint64_t> seen;
    for (std::uint64_t x = 0; x < n; ++x) {
      const std::uint64_t y = p(x);
      ASSERT_LT(y, n);
      ASSERT_TRUE(seen.insert(y).second);
      ASSERT_EQ(p.inverse(y), x);
    }
    // The batch forms (SIMD) agree with the element-wise ones.
    std::vector<std::uint32_t> batch(n), back(n);
    for (std::uint64_t x = 0; x < n; ++x) batch[x] = static_cast<std::uint32_t>(x);
    p.apply(batch.data(), n);
    back = batch;
    p.apply_inverse(back.data(), n);
    for (std::uint64_t x = 0; x < n; ++x) {
      ASSERT_EQ(batch[x], p(x));
      ASSERT_EQ(back[x], x);
    }
  }
  // 32-bit lanes up to the largest N: no overflow in the split or the rounds.
  const Permutation big(kMaxNodes, 5);
  for (std::uint64_t x : {std::uint64_t{0}, std::uint64_t{1}, kMaxNodes / 2, kMaxNodes - 1}) {
    const std::uint64_t y = big(x);
    ASSERT_LT(y, kMaxNodes);
    ASSERT_EQ(big.inverse(y), x);
  }
}

TEST(Generator, SameSeedSameGraphForEveryThreadCount) {
  for (Shape s : kAll) {
    const GenSpec spec{.shape = s, .nodes = 3000, .edges = 20000, .tokens = 17, .seed = 42, .layers = 6};
    const OwnedGame one = generate(spec, {1});
    for (unsigned threads : {2u, 3u}) {
      in_arena(threads,
               [&] { EXPECT_TRUE(same(generate(spec, test_support::loops(threads, 64, 16)), one)) << shape_name(s); });
    }
    EXPECT_EQ(one.targets.size(), generated_edges(spec));
    EXPECT_EQ(one.tokens.size(), 17u);
    GenSpec other = spec;
    other.seed = 43;
    EXPECT_NE(generate(other).targets, one.targets) << shape_name(s);
  }
}

TEST(Generator, EveryShapeIsADagWithoutSelfLoops) {
  for (Shape s : kAll) {
    const OwnedGame g = generate({.shape = s, .nodes = 2000, .edges = 12000, .tokens = 3, .seed = 7, .layers = 5});
    for (node_t u = 0; u < g.n; ++u)
      for (node_t v : g.graph().successors(u)) ASSERT_NE(u, v) << shape_name(s);
    EXPECT_NO_THROW(serial_sg(g.graph())) << shape_name(s);
  }
}

TEST(Generator, IdsAreNotInTopologicalOrder) {
  const OwnedGame g = generate({Shape::uniform, 1000, 5000, 0, 1});
  int backward = 0;
  for (node_t u = 0; u < g.n; ++u)
    for (node_t v : g.graph().successors(u)) backward += v < u;
  EXPECT_GT(backward, 1000);
}

TEST(Generator, ShapesHaveTheirCharacter) {
  const auto depth = [](const OwnedGame& g) { return compute_layers(g.graph(), {1}).count(); };
  EXPECT_EQ(depth(generate({Shape::chain, 5000, 20000, 0, 9})), 5000u);
  EXPECT_LE(depth(generate({Shape::layered, 100000, 1000000, 0, 9, 4})), 4u);
  const OwnedGame t = generate({Shape::tournament, 100, 0, 0, 9});
  EXPECT_EQ(t.targets.size(), 4950u);
  const auto sg = serial_sg(t.graph()).to_vector();
  EXPECT_EQ(*std::max_element(sg.begin(), sg.end()), 99u);
  const OwnedGame p = generate({Shape::powerlaw, 100000, 1000000, 0, 9});
  EXPECT_GE(max_degree(p.graph()), 1000u) << "a few nodes with thousands of successors";
  const OwnedGame u = generate({Shape::uniform, 100000, 1000000, 0, 9});
  EXPECT_LE(max_degree(u.graph()), 100u);
  const OwnedGame k = generate({Shape::kron, 1 << 14, 200000, 0, 9});
  EXPECT_GE(max_degree(k.graph()), 500u) << "R-MAT hubs";
}

TEST(Generator, RejectsImpossibleSpecs) {
  EXPECT_THROW(generate({Shape::uniform, 1, 5, 0, 1}), std::invalid_argument);
  EXPECT_THROW(generate({Shape::uniform, 0, 0, 1, 1}), std::invalid_argument);
  EXPECT_THROW(generate({Shape::layered, 10, 50, 0, 1, 11}), std::invalid_argument);
  EXPECT_THROW(parse_shape("ring"), std::invalid_argument);
}

}  // namespace
}  // namespace grundy
