// The long differential run (ctest -L long; not in the default run): the
// level engine against the reference solver and the Boost.Graph baseline on
// thousands of random DAGs of every generator shape, with 1 to 4 threads.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "grundy/bgl_baseline.hpp"
#include "grundy/generator.hpp"
#include "grundy/level_solver.hpp"
#include "grundy/serial_solver.hpp"

namespace grundy {
namespace {

TEST(LongDifferential, EveryShapeEveryThreadCount) {
  const Shape shapes[] = {Shape::uniform, Shape::layered, Shape::chain, Shape::powerlaw, Shape::tournament, Shape::kron};
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
        tbb::task_arena arena(static_cast<int>(threads));
        const ParallelConfig pc{threads, 16, 8, 0};
        const auto got = arena.execute([&] { return level_sg(g.graph(), pc).to_vector(); });
        ASSERT_EQ(got, want) << shape_name(s) << " seed " << seed << " threads " << threads;
      }
      ++graphs;
    }
  }
  EXPECT_EQ(graphs, 3600);
}

}  // namespace
}  // namespace grundy
