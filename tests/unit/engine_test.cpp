// The parallel engine and the Boost.Graph baseline against the reference
// solver, for every shape and thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <span>

#include "presets.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/solve/bgl_baseline.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "grundy/solve/solver.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::expect_valid_cycle;
using test_support::make_game;
using test_support::Widened;

// Tiny thresholds, so that small test graphs take the parallel paths too
// (rounds split between threads, blocked scatter included) and the mex
// pass's batches.
SolveConfig eager(unsigned threads) { return test_support::eager(threads); }

std::vector<GenSpec> corpus() {
  std::vector<GenSpec> specs;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    specs.push_back({Shape::uniform, 50 + seed * 37, 200 + seed * 400, 5, seed});
    specs.push_back({Shape::chain, 20 + seed * 50, 100 + seed * 60, 3, seed});
  }
  specs.push_back({Shape::uniform, 3000, 400000, 9, 77});  // degrees past 64
  specs.push_back({Shape::tournament, 300, 0, 4, 5});      // values 0..299
  specs.push_back({Shape::chain, 100000, 0, 1, 6});        // 100000 layers
  return specs;
}

TEST(Engine, EveryAlgorithmAndThreadCountAgreesWithTheReference) {
  for (const GenSpec& spec : corpus()) {
    const OwnedGame g = generate(spec);
    const Widened wide(g.graph());
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    SCOPED_TRACE(std::string(shape_name(spec.shape)) + " seed " + std::to_string(spec.seed));
    EXPECT_EQ(bgl_sg(g.graph()).to_vector(), want);
    EXPECT_EQ(bgl_sg(wide.graph).to_vector(), want);
    EXPECT_EQ(serial_sg(wide.graph).to_vector(), want);
    for (unsigned threads : {1u, 2u, 3u, 4u}) {
      const auto got = in_arena(threads, [&] { return level_sg(g.graph(), eager(threads)); });
      ASSERT_EQ(got.to_vector(), want) << threads << " threads";
      const auto wide_got = in_arena(threads, [&] { return level_sg(wide.graph, eager(threads)); });
      ASSERT_EQ(wide_got.to_vector(), want) << threads << " threads, 64-bit ids";
    }
  }
}

// Graphs with wide rounds (2^15 nodes or more) whose counters two threads
// own, for 32- and 64-bit ids; the last one's rounds span two windows
// (Tuning::owned_round_window).
TEST(Engine, OwnedCountersGiveTheReferenceValues) {
  for (const GenSpec& spec :
       {GenSpec{Shape::layered, 40000, 240000, 3, 11}, GenSpec{Shape::uniform, 50000, 400000, 3, 12},
        GenSpec{Shape::powerlaw, 40000, 400000, 3, 13}, GenSpec{Shape::layered, 150000, 600000, 3, 14},
        // Skewed targets: the count's counters are cut where the threads get as many edges each.
        GenSpec{Shape::kron, 65536, 400000, 3, 15}}) {
    const OwnedGame g = generate(spec);
    const Widened wide(g.graph());
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    for (unsigned threads : {1u, 2u})
      for (const SolveConfig& config : {test_support::owned_rounds(threads), test_support::owned_counts(threads),
                                        test_support::scattered_counts(threads)}) {
        EXPECT_EQ(in_arena(threads, [&] { return level_sg(g.graph(), config); }).to_vector(), want)
            << shape_name(spec.shape) << ", " << threads << " threads";
        EXPECT_EQ(in_arena(threads, [&] { return level_sg(wide.graph, config); }).to_vector(), want)
            << shape_name(spec.shape) << ", " << threads << " threads, 64-bit ids";
      }
  }
}

// Sinks take no place in the mex batches: a layer, or a thread's piece of
// one, may hold nothing else, at either end of the order. Isolated nodes
// (lowest and highest ids, as R-MAT leaves them) around a random DAG, and a
// graph with no edge at all; every layer batched (eager) or not, or the
// dataflow pass.
TEST(Engine, SinksAtEitherEndOfABatchedLayer) {
  std::mt19937_64 rng(21);
  const node_t core = 3000, pad = 1500, n = core + 2 * pad;
  std::vector<std::pair<node_t, node_t>> edges;
  for (int k = 0; k < 20000; ++k) {
    node_t u = 1 + static_cast<node_t>(rng() % core), v = 1 + static_cast<node_t>(rng() % core);
    if (u == v) continue;
    if (u > v) std::swap(u, v);
    edges.emplace_back(pad + u, pad + v);
  }
  for (const OwnedGame& g : {make_game(n, edges), make_game(n, {})}) {
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    for (unsigned threads : {1u, 2u, 3u})
      for (const SolveConfig& config :
           {eager(threads), test_support::eager_loops(threads), test_support::dataflow(threads)}) {
        PhaseTimer log;
        log.log_layers = true;
        EXPECT_EQ(in_arena(threads, [&] { return level_sg(g.graph(), config, &log); }).to_vector(), want)
            << g.graph().m << " edges, " << threads << " threads";
        std::uint64_t edges_logged = 0;
        for (const LayerStat& s : log.layers) edges_logged += s.edges;
        EXPECT_EQ(edges_logged, g.graph().m) << threads << " threads";
      }
  }
}

// The dataflow mex pass (no barrier between layers; a value not yet
// written is solved by the thread that needs it, or waited for past a
// long walk) on every shape: hubs of hundreds of successors (kron), values
// past 255 (tournament), deep chains, wide layers, sinks padding the order
// at both ends; on more threads than cores too, where the thread holding a
// value may be descheduled. With a layer log, the pass is one step holding
// every edge.
TEST(Engine, DataflowMexAgreesWithTheReference) {
  std::vector<GenSpec> specs = {{Shape::kron, 4096, 60000, 5, 31},      {Shape::kron, 20000, 300000, 5, 32},
                                {Shape::powerlaw, 5000, 60000, 5, 33},  {Shape::uniform, 3000, 400000, 5, 34},
                                {Shape::layered, 3000, 200000, 5, 35},  {Shape::tournament, 300, 0, 4, 36},
                                {Shape::chain, 20000, 30000, 3, 37},    {Shape::uniform, 50000, 200000, 3, 38}};
  for (std::uint64_t seed = 1; seed <= 10; ++seed) specs.push_back({Shape::uniform, 50 + seed * 97, 300 + seed * 900, 3, seed});
  for (const GenSpec& spec : specs) {
    const OwnedGame g = generate(spec);
    const Widened wide(g.graph());
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    SCOPED_TRACE(std::string(shape_name(spec.shape)) + " seed " + std::to_string(spec.seed));
    for (unsigned threads : {2u, 3u, 4u, 8u}) {
      PhaseTimer log;
      log.log_layers = true;
      const SolveConfig config = test_support::dataflow(threads);
      ASSERT_EQ(in_arena(threads, [&] { return level_sg(g.graph(), config, &log); }).to_vector(), want)
          << threads << " threads";
      ASSERT_EQ(log.layers.size(), 1u) << threads << " threads";
      EXPECT_EQ(log.layers[0].edges, g.graph().m) << threads << " threads";
      EXPECT_EQ(log.layers[0].nodes, g.graph().n) << threads << " threads";
      ASSERT_EQ(in_arena(threads, [&] { return level_sg(wide.graph, config); }).to_vector(), want)
          << threads << " threads, 64-bit ids";
    }
  }
}

// The dataflow pass asked for 4 threads where oneTBB lends 1: that thread
// takes every piece in order and never waits on a piece nobody holds.
TEST(Engine, DataflowMexFinishesOnFewerThreadsThanAskedFor) {
  const OwnedGame g = generate({Shape::kron, 8192, 100000, 5, 41});
  const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
  EXPECT_EQ(in_arena(1, [&] { return level_sg(g.graph(), test_support::dataflow(4)); }).to_vector(), want);
}

// No layer is wide enough in nodes to split, but every layer of 64 nodes or
// more holding 600 / threads edges is heavy enough (kron-l's narrow layers
// hold 95% of its edges).
SolveConfig heavy_only(unsigned threads) {
  SolveConfig config = test_support::eager(threads, std::size_t{1} << 30);
  config.loops.heavy_work = 600;
  return config;
}

TEST(Engine, HeavyNarrowLayersAreSplitAndAgree) {
  for (const GenSpec& spec : {GenSpec{Shape::uniform, 3000, 60000, 5, 3}, GenSpec{Shape::kron, 4096, 50000, 5, 4},
                              GenSpec{Shape::layered, 3000, 200000, 5, 5}}) {  // degrees past 64
    const OwnedGame g = generate(spec);
    const std::vector<sg_t> want = serial_sg(g.graph()).to_vector();
    SCOPED_TRACE(std::string(shape_name(spec.shape)) + " seed " + std::to_string(spec.seed));
    for (unsigned threads : {1u, 2u, 3u}) {
      PhaseTimer log;
      log.log_layers = true;
      const auto got = in_arena(threads, [&] { return level_sg(g.graph(), heavy_only(threads), &log); });
      ASSERT_EQ(got.to_vector(), want) << threads << " threads";
      // One thread: every layer in one inline run. More: the heavy layers
      // are steps of their own (parallel loops).
      const auto heavy_step = [](const LayerStat& s) {
        return s.first_layer == s.last_layer && s.nodes >= 64 && s.edges >= 200;
      };
      if (threads == 1) {
        EXPECT_EQ(log.layers.size(), 1u);
      } else {
        EXPECT_TRUE(std::any_of(log.layers.begin(), log.layers.end(), heavy_step)) << threads << " threads";
      }
    }
  }
}

TEST(Engine, LayersPointForwardAndCoverEveryNode) {
  for (const GenSpec& spec : corpus()) {
    const OwnedGame g = generate(spec);
    const Layers layers = in_arena(3, [&] { return compute_layers(g.graph(), eager(3)); });
    std::vector<std::size_t> layer_of(g.n, SIZE_MAX);
    for (std::size_t l = 0; l < layers.count(); ++l)
      for (std::size_t i = layers.begin[l]; i < layers.begin[l + 1]; ++i) {
        ASSERT_EQ(layer_of[layers.order[i]], SIZE_MAX) << "node in two layers";
        layer_of[layers.order[i]] = l;
      }
    for (node_t u = 0; u < g.n; ++u) {
      ASSERT_NE(layer_of[u], SIZE_MAX);
      for (node_t v : g.graph().successors(u)) ASSERT_LT(layer_of[u], layer_of[v]);
    }
    if (spec.shape == Shape::chain) {
      EXPECT_EQ(layers.count(), spec.nodes);
    }
  }
}

// The fast mex (unrolled per degree below Tuning::unrolled_degrees, a loop up to 63, a
// bitset beyond) against the stamp reference, at every degree across those
// bounds: values drawn near the degree (so the mex varies), some far past
// 64, and every other node holding all of 0..d-1 (mex = d).
template <class Sg>
void check_mex_at_every_degree() {
  std::mt19937_64 rng(11);
  BitsetMex fast;
  for (std::size_t d = 0; d <= 140; ++d) {
    StampMex reference(d);
    std::vector<Sg> sg(d + 8);
    std::vector<node_t> succ(d);
    for (int trial = 0; trial < 40; ++trial) {
      for (std::size_t v = 0; v < sg.size(); ++v)
        sg[v] = static_cast<Sg>(trial % 2 ? v : rng() % 5 == 0 ? 60 + rng() % 2000 : rng() % (d + 2));
      for (std::size_t i = 0; i < d; ++i) succ[i] = static_cast<node_t>(trial % 2 ? i : rng() % sg.size());
      std::shuffle(succ.begin(), succ.end(), rng);
      ASSERT_EQ(fast(succ.data(), d, sg.data()), reference(std::span<const node_t>(succ), sg.data()))
          << "degree " << d << " trial " << trial;
    }
  }
}

TEST(Engine, MexAtEveryDegree) {
  check_mex_at_every_degree<std::uint16_t>();
  check_mex_at_every_degree<std::uint32_t>();
}

// The masked body (mex_masked) against the stamp reference: rows of
// 0..Tuning::masked_slots successors whose slots past the degree hold
// other nodes' ids, values small, at 63 and 64, and large.
template <class Sg>
void check_masked_mex(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t n = 1 + rng() % 40;
    std::vector<Sg> sg(n);
    const unsigned spread = trial % 4 == 0 ? 70 : trial % 4 == 1 ? 9 : 4;
    for (auto& x : sg) x = static_cast<Sg>(rng() % 8 == 0 ? rng() : rng() % spread);
    std::array<node_t, Tuning::masked_slots> slots;
    for (auto& v : slots) v = static_cast<node_t>(rng() % n);
    const std::size_t d = rng() % (Tuning::masked_slots + 1);
    StampMex reference(d);
    ASSERT_EQ(mex_masked(slots.data(), d, sg.data()), reference(std::span<const node_t>(slots.data(), d), sg.data()))
        << "trial " << trial;
  }
}

TEST(Engine, MaskedMexReadsOnlyTheSlotsBelowTheDegree) {
  check_masked_mex<std::uint16_t>(11);
  check_masked_mex<std::uint32_t>(12);
}

TEST(Engine, WideMexAndNarrowValues) {
  // A tournament of 70: values up to 69, the wide bitset path for most nodes.
  const OwnedGame t = generate({Shape::tournament, 70, 0, 0, 1});
  const SgValues sg = level_sg(t.graph(), {1});
  EXPECT_EQ(sg.to_vector(), serial_sg(t.graph()).to_vector());
  EXPECT_TRUE(SgValues::fits_narrow(t.graph().m));
  EXPECT_TRUE(SgValues::fits_narrow(edge_t{65536} * 65537 / 2 - 1));
  EXPECT_FALSE(SgValues::fits_narrow(edge_t{65536} * 65537 / 2));
}

TEST(Engine, EveryAlgorithmReportsAValidCycle) {
  // A DAG with one back edge planted deep inside it.
  OwnedGame dag = generate({Shape::chain, 500, 2000, 0, 3});
  std::vector<node_t> pairs;
  for (node_t u = 0; u < dag.n; ++u)
    for (node_t v : dag.graph().successors(u)) pairs.insert(pairs.end(), {u, v});
  const node_t a = pairs[2 * 100], b = pairs[2 * 300 + 1];  // chain edges 100 and 300
  pairs.insert(pairs.end(), {b, a});
  OwnedGame g;
  build_csr(dag.n, pairs, g);
  for (Algo algo : {Algo::level, Algo::serial, Algo::bgl}) {
    for (unsigned threads : {1u, 3u}) {
      try {
        in_arena(threads, [&] { return solve_sg(g.graph(), algo, eager(threads)); });
        ADD_FAILURE() << algo_name(algo) << ": no cycle reported";
      } catch (const CycleError& e) {
        expect_valid_cycle(g, e.nodes());
      }
    }
  }
}

TEST(Verify, AcceptsCorrectValuesAndCatchesAPlantedError) {
  const OwnedGame g = generate({Shape::uniform, 5000, 30000, 3, 11});
  SgValues sg = level_sg(g.graph(), {1});
  EXPECT_FALSE(verify_sg(g.graph(), sg, eager(2).loops).has_value());
  sg.visit([](auto v) { v[1234] ^= 1; });
  const auto bad = in_arena(2, [&] { return verify_sg(g.graph(), sg, eager(2).loops); });
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->node, 1234u);
  EXPECT_EQ(bad->got ^ 1, bad->want);
}

TEST(Algo, NamesRoundTrip) {
  for (Algo a : {Algo::automatic, Algo::level, Algo::serial, Algo::bgl}) EXPECT_EQ(parse_algo(algo_name(a)), a);
  EXPECT_THROW(parse_algo("fast"), std::invalid_argument);
}

}  // namespace
}  // namespace grundy
