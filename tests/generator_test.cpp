#include <gtest/gtest.h>

#include "grundy/generator.hpp"
#include "grundy/serial_solver.hpp"

namespace grundy {
namespace {

TEST(Generator, SameSeedSameGraph) {
  for (Shape s : {Shape::uniform, Shape::chain, Shape::tournament}) {
    const GenSpec spec{s, 300, 2000, 17, 42};
    const OwnedGame a = generate(spec), b = generate(spec);
    EXPECT_EQ(a.offsets, b.offsets);
    EXPECT_EQ(a.targets, b.targets);
    EXPECT_EQ(a.tokens, b.tokens);
    EXPECT_EQ(a.targets.size(), generated_edges(spec));
    EXPECT_EQ(a.tokens.size(), 17u);
    GenSpec other = spec;
    other.seed = 43;
    EXPECT_NE(generate(other).targets, a.targets) << shape_name(s);
  }
}

TEST(Generator, IdsAreNotInTopologicalOrder) {
  const OwnedGame g = generate({Shape::uniform, 1000, 5000, 0, 1});
  int backward = 0;
  for (node_t u = 0; u < g.n; ++u)
    for (node_t v : g.graph().successors(u)) backward += v < u;
  EXPECT_GT(backward, 1000);
  EXPECT_NO_THROW(serial_sg(g.graph()));  // still a DAG
}

TEST(Generator, ChainIsAsDeepAsItIsLong) {
  const OwnedGame g = generate({Shape::chain, 1000, 0, 0, 9});
  EXPECT_EQ(g.targets.size(), 999u);
  const auto sg = serial_sg(g.graph()).to_vector();
  EXPECT_EQ(std::count(sg.begin(), sg.end(), 0u), 500);
}

TEST(Generator, RejectsImpossibleSpecs) {
  EXPECT_THROW(generate({Shape::uniform, 1, 5, 0, 1}), std::invalid_argument);
  EXPECT_THROW(generate({Shape::uniform, 0, 0, 1, 1}), std::invalid_argument);
  EXPECT_THROW(parse_shape("ring"), std::invalid_argument);
}

}  // namespace
}  // namespace grundy
