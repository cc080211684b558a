// The long differential run (ctest -L long; not in the default run): the
// level engine against the reference solver and the Boost.Graph baseline on
// thousands of random DAGs of every generator shape, with 1 to 4 threads.
#include <gtest/gtest.h>

#include "presets.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/solve/bgl_baseline.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/serial_solver.hpp"

namespace grundy {
namespace {

TEST(LongDifferential, EveryShapeEveryThreadCount) {
  const Shape shapes[] = {Shape::uniform,  Shape::layered,    Shape::chain,
                          Shape::powerlaw, Shape::tournament, Shape::kron};
  int graphs = 0;
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    for (Shape s : shapes) {
      GenSpec spec{s, 16 + mix(seed, 7, 0) % 3000, 0, 3, seed, 2 + mix(seed, 7, 1) % 12};
      spec.edges = spec.nodes * (1 + mix(seed, 7, 2) % 12);
      if (s == Shape::tournament) spec.nodes = 2 + spec.nodes % 300;
      if (s == Shape::layered) spec.layers = std::min(spec.layers, spec.nodes);
      const OwnedGame g = generate(spec);
      const auto want = serial_sg(g.graph()).to_vector();
      ASSERT_EQ(bgl_sg(g.graph()).to_vector(), want) << shape_name(s) << " seed " << seed;
      for (unsigned threads = 1; threads <= 4; ++threads) {
        const SolveConfig config = test_support::eager(threads, 16, 8);
        const auto got = in_arena(threads, [&] { return level_sg(g.graph(), config).to_vector(); });
        ASSERT_EQ(got, want) << shape_name(s) << " seed " << seed << " threads " << threads;
      }
      ++graphs;
    }
  }
  EXPECT_EQ(graphs, 3600);
}

// Graphs past Tuning::cached_nodes, where layering takes the 1-byte in-degree
// counters (the run above stays below, with the 4-byte ones).
TEST(LongDifferential, NarrowCountersEveryShape) {
  const Shape shapes[] = {Shape::uniform, Shape::layered, Shape::chain, Shape::powerlaw, Shape::kron};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    for (Shape s : shapes) {
      const std::uint64_t n = Tuning::cached_nodes + mix(seed, 9, 0) % 100000;
      const GenSpec spec{s, n, n * (2 + mix(seed, 9, 1) % 10), 3, seed, 3 + mix(seed, 9, 2) % 20};
      const OwnedGame g = generate(spec);
      const auto want = serial_sg(g.graph()).to_vector();
      for (unsigned threads = 1; threads <= 3; ++threads) {
        const SolveConfig config = test_support::eager(threads, 16, 8);
        const auto got = in_arena(threads, [&] { return level_sg(g.graph(), config).to_vector(); });
        ASSERT_EQ(got, want) << shape_name(s) << " seed " << seed << " threads " << threads;
      }
    }
  }
}

// A node of in-degree 2^24 + 3 passes what the 1-byte counters and their
// 16-bit carry hold: layering must notice and start over with 4-byte ones.
TEST(LongDifferential, InDegreePastTheNarrowCountersFallsBack) {
  const node_t n = Tuning::cached_nodes + 10;
  const std::size_t fan_in = (std::size_t{1} << 24) + 3;
  std::vector<node_t> pairs;
  pairs.reserve(2 * (fan_in + 1));
  for (std::size_t i = 0; i < fan_in; ++i) pairs.insert(pairs.end(), {0, 1});  // multi-edges
  pairs.insert(pairs.end(), {2, 0});
  OwnedGame g;
  build_csr(n, pairs, g);
  for (unsigned threads : {1u, 2u}) {
    const Layers layers = in_arena(threads, [&] { return compute_layers(g.graph(), {threads}); });
    ASSERT_EQ(layers.count(), 3u);  // {2, 3, 4, ...}, {0}, {1}
    EXPECT_EQ(layers.order[layers.begin[1]], 0u);
    EXPECT_EQ(layers.order[layers.begin[2]], 1u);
    const auto sg = in_arena(threads, [&] { return level_sg(g.graph(), {threads}).to_vector(); });
    EXPECT_EQ(sg[1], 0u);
    EXPECT_EQ(sg[0], 1u);
    EXPECT_EQ(sg[2], 0u);
  }
}

}  // namespace
}  // namespace grundy
