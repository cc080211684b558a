// The level engine's depth-first path (up to two threads, below 2^18 nodes;
// there every graph from 2^16 nodes and graphs with hubs from 4,096; on
// one thread, graphs with hubs below 5 * 2^18)
// against the reference solver, the game search and the layering's depth,
// and where level_sg takes it.
#include <gtest/gtest.h>

#include <string>

#include "brute_force.hpp"
#include "presets.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/game.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/depth_first.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::BruteForce;
using test_support::expect_valid_cycle;
using test_support::Widened;

// Every shape, with degrees past 64 (the bitset mex) and values past 64
// (tournaments: a frame's word is full, so the row is read again).
std::vector<GenSpec> corpus() {
  std::vector<GenSpec> specs;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    specs.push_back({Shape::uniform, 40 + seed * 97, 100 + seed * 900, 3, seed});
    specs.push_back({Shape::chain, 30 + seed * 80, 60 + seed * 200, 3, seed});
    specs.push_back({Shape::powerlaw, 100 + seed * 60, seed * 2000, 3, seed});
    specs.push_back({Shape::kron, std::uint64_t{64} << (seed % 4), seed * 1500, 3, seed});
    specs.push_back({Shape::layered, 200 + seed * 30, seed * 1000, 3, seed, 2 + seed % 7});
  }
  specs.push_back({Shape::uniform, 3000, 400000, 9, 77});  // degrees past 64
  specs.push_back({Shape::tournament, 300, 0, 4, 5});      // values 0..299
  specs.push_back({Shape::tournament, 65, 0, 4, 6});       // one value of exactly 64
  specs.push_back({Shape::chain, 200000, 0, 1, 6});        // a path 200000 frames deep
  return specs;
}

TEST(DepthFirst, AgreesWithTheReferenceAndTheLayeringsDepth) {
  DepthFirstScratch scratch;  // reused from graph to graph, as a batch does
  for (const GenSpec& spec : corpus()) {
    const OwnedGame g = generate(spec);
    SCOPED_TRACE(std::string(shape_name(spec.shape)) + " seed " + std::to_string(spec.seed));
    const auto want = serial_sg(g.graph()).to_vector();
    const std::size_t layers = compute_layers(g.graph(), {1}).count();
    SgValues sg;
    std::size_t depth = 0;
    depth_first_sg(g.graph(), scratch, sg, &depth);
    ASSERT_EQ(sg.to_vector(), want);
    EXPECT_EQ(depth, layers);
    depth_first_sg(g.graph(), scratch, sg);  // no depth asked: the walk without heights
    ASSERT_EQ(sg.to_vector(), want);
    const Widened wide(g.graph());
    depth_first_sg(wide.graph, scratch, sg, &depth);
    ASSERT_EQ(sg.to_vector(), want) << "64-bit ids";
    EXPECT_EQ(depth, layers);
  }
}

// Tiny random DAGs, duplicate edges included, against the game search,
// which knows only the rules.
TEST(DepthFirst, MatchesBruteForceOnTinyDags) {
  DepthFirstScratch scratch;
  for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
    GenSpec spec;
    spec.nodes = 1 + seed % 7;
    spec.edges = spec.nodes < 2 ? 0 : mix(seed, 11, 0) % 14;
    spec.seed = seed;
    const OwnedGame g = generate(spec);
    SgValues sg;
    depth_first_sg(g.graph(), scratch, sg);
    BruteForce brute(g.graph());
    for (node_t u = 0; u < g.n; ++u)
      for (node_t v = u; v < g.n; ++v)
        ASSERT_EQ(brute.first_player_wins({u, v}), sg[u] != sg[v]) << "seed " << seed << " nodes " << u << ", " << v;
  }
}

TEST(DepthFirst, EmptyGraphHasNoLayers) {
  OwnedGame g;
  build_csr(0, {}, g);
  DepthFirstScratch scratch;
  SgValues sg;
  std::size_t depth = 7;
  depth_first_sg(g.graph(), scratch, sg, &depth);
  EXPECT_EQ(sg.size(), 0u);
  EXPECT_EQ(depth, 0u);
}

TEST(DepthFirst, ReportsAValidCycle) {
  // A DAG with one back edge planted deep inside it, and a self-loop.
  OwnedGame dag = generate({Shape::chain, 500, 2000, 0, 3});
  std::vector<node_t> pairs;
  for (node_t u = 0; u < dag.n; ++u)
    for (node_t v : dag.graph().successors(u)) pairs.insert(pairs.end(), {u, v});
  const node_t a = pairs[2 * 100], b = pairs[2 * 300 + 1];
  for (const std::vector<node_t>& extra : {std::vector<node_t>{b, a}, std::vector<node_t>{a, a}}) {
    std::vector<node_t> with = pairs;
    with.insert(with.end(), extra.begin(), extra.end());
    OwnedGame g;
    build_csr(dag.n, with, g);
    DepthFirstScratch scratch;
    SgValues sg;
    try {
      depth_first_sg(g.graph(), scratch, sg);
      ADD_FAILURE() << "no cycle reported";
    } catch (const CycleError& e) {
      expect_valid_cycle(g, e.nodes());
    }
  }
}

// level_sg takes the path on up to Tuning::depth_first_max_threads threads,
// below Tuning::depth_first_below nodes and from depth_first_from_edges
// edges (or depth_first_from_degree a node), and nowhere else; both ways give
// the same values and depth.
TEST(DepthFirst, LevelTakesItBelowTheBar) {
  const OwnedGame g = generate({Shape::uniform, 5000, 35000, 3, 21});
  const auto want = serial_sg(g.graph()).to_vector();
  const auto phases_of = [&](const SolveConfig& config, std::size_t* depth) {
    PhaseTimer timer;
    LevelScratch scratch;
    scratch.wants_depth = true;
    SgValues sg;
    in_arena(config.loops.threads, [&] { level_sg(g.graph(), config, scratch, sg, &timer); });
    EXPECT_EQ(sg.to_vector(), want);
    *depth = scratch.depth;
    std::string names;
    for (const auto& p : timer.phases()) names += p.name + ";";
    return names;
  };
  std::size_t dfs_depth = 0, layered_depth = 0, other = 0;
  EXPECT_EQ(phases_of(test_support::depth_first_one_thread(), &dfs_depth), "dfs + mex;");
  EXPECT_EQ(phases_of({1}, &other), "layering;mex;");  // 35000 edges, 7 a node: too few to take it
  EXPECT_EQ(phases_of(test_support::layered_one_thread(), &layered_depth), "layering;mex;");
  EXPECT_EQ(dfs_depth, layered_depth);
  EXPECT_EQ(dfs_depth, compute_layers(g.graph(), {1}).count());
  SolveConfig small_bar = test_support::depth_first_one_thread();
  small_bar.tuning.depth_first_below = g.n;  // n is not below n
  EXPECT_EQ(phases_of(small_bar, &other), "layering;mex;");
  SolveConfig more = test_support::depth_first_one_thread();
  more.loops.threads = Tuning::depth_first_max_threads + 1;
  EXPECT_EQ(phases_of(more, &other), "layering;mex;");
  const Tuning t;
  const auto below = static_cast<node_t>(t.depth_first_below);
  const auto edges = static_cast<edge_t>(t.depth_first_from_edges);
  EXPECT_TRUE(takes_depth_first(below - 1, edges, {1}));
  EXPECT_FALSE(takes_depth_first(below - 1, edges - 1, {1}));
  EXPECT_FALSE(takes_depth_first(below, edges, {1}));
  // Fewer edges, but depth_first_from_degree a node.
  const auto degree = static_cast<edge_t>(t.depth_first_from_degree);
  EXPECT_TRUE(takes_depth_first(1000, 1000 * degree, {1}));
  EXPECT_FALSE(takes_depth_first(1000, 1000 * degree - 1, {1}));
  EXPECT_FALSE(takes_depth_first(1000, 1000 * degree, {Tuning::depth_first_max_threads + 1}));
  EXPECT_FALSE(takes_depth_first(0, 0, {1}));
  EXPECT_TRUE(takes_depth_first(below - 1, edges, {Tuning::depth_first_max_threads}));
  EXPECT_FALSE(takes_depth_first(below - 1, edges, {Tuning::depth_first_max_threads + 1}));
  // Values that could reach the 16-bit sentinels (65534 needs 65534*65535/2 edges).
  EXPECT_FALSE(takes_depth_first(1000, edge_t{65534} * 65535 / 2, {1}));
  EXPECT_TRUE(takes_depth_first(1000, edge_t{65534} * 65535 / 2 - 1, {1}));
}

// Below the node bar, a graph short of the edge bars whose Kahn rounds
// turn out deep (a chain of shuffled ids, 2 edges a node) stops its rounds
// after a window or two and is walked instead, its depth too; a shallow one
// is layered; past depth_first_max_threads, or with the walk turned off
// (depth_first_below 0), the deep one is layered to the end.
TEST(DepthFirst, SmallDeepGraphsAreWalkedAfterTheirFirstRounds) {
  const OwnedGame chain = generate({Shape::chain, 5000, 10000, 3, 8});
  const OwnedGame shallow = generate({Shape::uniform, 5000, 10000, 3, 8});
  const auto phases_of = [](const OwnedGame& g, const SolveConfig& config, std::size_t* depth) {
    PhaseTimer timer;
    LevelScratch scratch;
    scratch.wants_depth = true;
    SgValues sg;
    in_arena(config.loops.threads, [&] { level_sg(g.graph(), config, scratch, sg, &timer); });
    EXPECT_EQ(sg.to_vector(), serial_sg(g.graph()).to_vector());
    *depth = scratch.depth;
    std::string names;
    for (const auto& p : timer.phases()) names += p.name + ";";
    return names;
  };
  const std::size_t chain_depth = compute_layers(chain.graph(), {1}).count();
  ASSERT_GT(chain_depth, 2 * Tuning{}.small_deep_window_rounds);
  std::size_t depth = 0;
  EXPECT_EQ(phases_of(chain, {1}, &depth), "layering;dfs + mex;");
  EXPECT_EQ(depth, chain_depth);
  EXPECT_EQ(phases_of(chain, {Tuning::depth_first_max_threads}, &depth), "layering;dfs + mex;");
  EXPECT_EQ(phases_of(shallow, {1}, &depth), "layering;mex;");
  EXPECT_EQ(depth, compute_layers(shallow.graph(), {1}).count());
  EXPECT_EQ(phases_of(chain, {Tuning::depth_first_max_threads + 1}, &depth), "layering;mex;");
  EXPECT_EQ(phases_of(chain, test_support::layered_one_thread(), &depth), "layering;mex;");
  EXPECT_EQ(depth, chain_depth);
}

// A graph whose targets repeat (a few hubs draw the edges) takes the path
// from Tuning::depth_first_hub_from up to depth_first_hub_scale times
// depth_first_below nodes, whatever its edges (past depth_first_below on
// one thread only); evenly spread targets do not, nor does a solve that
// asks for the depth (a batch's). Values as the reference solver's.
TEST(DepthFirst, HubGraphsTakeItPastTheBar) {
  const Tuning t;
  const auto n = static_cast<node_t>(t.depth_first_below + t.depth_first_below / 2);
  std::vector<std::pair<node_t, node_t>> to_hubs, spread;
  std::vector<std::pair<node_t, node_t>> deep;
  for (node_t u = 9; u <= n; ++u) {
    to_hubs.push_back({u, 1 + u % 8});  // every other edge into one of 8 hubs
    if (u % 16 != 0) to_hubs.push_back({u, u - 1});  // paths of 16 nodes
    spread.push_back({u, u - 1});       // no target repeats
    spread.push_back({u, u - 8});
    deep.push_back({u, 1 + u % 8});
    if (u < n) deep.push_back({u, u + 1});  // one path through every node, from the first root
  }
  const OwnedGame hubs = test_support::make_game(n, to_hubs), even = test_support::make_game(n, spread);
  EXPECT_GT(repeated_target_share(hubs.graph(), 2048), Tuning::repeated_targets_share);
  EXPECT_LT(repeated_target_share(even.graph(), 2048), 0.01);
  EXPECT_EQ(repeated_target_share(hubs.graph(), 0), 0.0);
  EXPECT_TRUE(takes_depth_first(hubs.graph(), {1}, false));
  EXPECT_FALSE(takes_depth_first(hubs.graph(), {2}, false));
  EXPECT_FALSE(takes_depth_first(even.graph(), {1}, false));
  EXPECT_FALSE(takes_depth_first(hubs.graph(), test_support::layered_one_thread(), false));
  SolveConfig low_bar{1};
  low_bar.tuning.depth_first_below = n / Tuning::depth_first_hub_scale;  // n / scale is not below it
  EXPECT_FALSE(takes_depth_first(hubs.graph(), low_bar, false));
  // Short of the edge bars (1 edge a node, or a quarter) a hub graph walks
  // too, in cache as well, from Tuning::depth_first_hub_from nodes; below
  // that it is layered, and so is an evenly spread graph in cache.
  const auto sparse_game = [](node_t nodes, node_t every) {
    std::vector<std::pair<node_t, node_t>> edges;
    for (node_t u = 9; u <= nodes; u += every) edges.push_back({u, 1 + u % 8});
    return test_support::make_game(nodes, edges);
  };
  const OwnedGame sparse_band = sparse_game(n, 4);
  ASSERT_LT(sparse_band.graph().m, t.depth_first_from_edges);
  EXPECT_TRUE(takes_depth_first(sparse_band.graph(), {1}, false));
  const auto cached = static_cast<node_t>(Tuning::cached_nodes);
  EXPECT_TRUE(takes_depth_first(sparse_game(cached, 1).graph(), {1}, false));
  EXPECT_TRUE(takes_depth_first(sparse_game(cached - 1, 1).graph(), {1}, false));
  const auto hub_from = static_cast<node_t>(Tuning::depth_first_hub_from);
  EXPECT_TRUE(takes_depth_first(sparse_game(hub_from, 1).graph(), {1}, false));
  // Below the node bar on as many threads as the size rule walks; past it, on one.
  EXPECT_TRUE(takes_depth_first(sparse_game(hub_from, 1).graph(), {Tuning::depth_first_max_threads}, false));
  EXPECT_FALSE(takes_depth_first(sparse_game(hub_from, 1).graph(), {Tuning::depth_first_max_threads + 1}, false));
  EXPECT_FALSE(takes_depth_first(sparse_game(hub_from - 1, 1).graph(), {1}, false));
  for (const node_t nodes : {hub_from, node_t{20000}, cached - 1})
    for (std::uint64_t seed = 1; seed <= 4; ++seed)
      EXPECT_FALSE(takes_depth_first(generate({Shape::uniform, nodes, 2 * nodes, 3, seed}).graph(), {1}, false))
          << nodes << " nodes, seed " << seed;
  EXPECT_FALSE(takes_depth_first(hubs.graph(), {1}, true));  // a batch's depth: the walk's heights cost more

  const auto phases_of = [](const OwnedGame& g) {
    PhaseTimer timer;
    LevelScratch scratch;
    SgValues sg;
    level_sg(g.graph(), {1}, scratch, sg, &timer);
    EXPECT_EQ(sg.to_vector(), serial_sg(g.graph()).to_vector());
    std::string names;
    for (const auto& p : timer.phases()) names += p.name + ";";
    return names;
  };
  EXPECT_EQ(phases_of(hubs), "dfs + mex;");
  // A deep one gives the walk up past n / hub_walk_depth_share nodes on its
  // path, and is layered (in a locality order: it is deep) after all.
  const OwnedGame chain = test_support::make_game(n, deep);
  EXPECT_TRUE(takes_depth_first(chain.graph(), {1}, false));
  EXPECT_EQ(depth_first_path_bound(chain.graph(), {1}), n / Tuning::hub_walk_depth_share);
  EXPECT_EQ(depth_first_path_bound(hubs.graph(), test_support::depth_first_one_thread()), SIZE_MAX);
  DepthFirstScratch scratch;
  SgValues sg;
  EXPECT_FALSE(depth_first_sg(chain.graph(), scratch, sg, nullptr, depth_first_path_bound(chain.graph(), {1})));
  EXPECT_TRUE(depth_first_sg(chain.graph(), scratch, sg, nullptr, n));
  const std::string phases = phases_of(chain);
  EXPECT_EQ(phases.rfind("dfs + mex;layering;", 0), 0u) << phases;
}

// On up to Tuning::depth_first_max_threads threads, from
// Tuning::cached_nodes to below depth_first_below, a graph short of the
// edge bars walks with no hub in it (a uniform graph of one edge a node,
// over a third of it sinks); not below cached_nodes, nor on more threads,
// nor with the depth asked for. Values as the reference's.
TEST(DepthFirst, SparseGraphsPastTheCacheWalk) {
  const Tuning t;
  const auto n = static_cast<node_t>(Tuning::cached_nodes + Tuning::cached_nodes / 2);
  const OwnedGame g = generate({Shape::uniform, n, n, 3, 9});
  ASSERT_LT(g.graph().m, t.depth_first_from_edges);
  ASSERT_LT(n, t.depth_first_below);
  ASSERT_LT(repeated_target_share(g.graph(), Tuning::repeated_targets_sample), Tuning::repeated_targets_share);
  EXPECT_TRUE(takes_depth_first(g.graph(), {1}, false));
  EXPECT_TRUE(takes_depth_first(g.graph(), {Tuning::depth_first_max_threads}, false));
  EXPECT_FALSE(takes_depth_first(g.graph(), {Tuning::depth_first_max_threads + 1}, false));
  EXPECT_FALSE(takes_depth_first(g.graph(), {1}, true));
  const auto small = static_cast<node_t>(Tuning::cached_nodes - 1);
  EXPECT_FALSE(takes_depth_first(generate({Shape::uniform, small, small, 3, 9}).graph(), {1}, false));
  SolveConfig low_bar{1};
  low_bar.tuning.depth_first_below = n;  // n is not below n, and evenly spread targets are no hubs
  EXPECT_FALSE(takes_depth_first(g.graph(), low_bar, false));
  PhaseTimer timer;
  LevelScratch scratch;
  SgValues sg;
  level_sg(g.graph(), {1}, scratch, sg, &timer);
  EXPECT_EQ(sg.to_vector(), serial_sg(g.graph()).to_vector());
  ASSERT_EQ(timer.phases().size(), 1u);
  EXPECT_EQ(timer.phases()[0].name, "dfs + mex");
}

}  // namespace
}  // namespace grundy
