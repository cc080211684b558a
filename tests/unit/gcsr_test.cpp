// The .gcsr format: round trips, layered renumbering, and hostile files.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "presets.hpp"
#include "grundy/primitives/arena.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/formats/degree_runs.hpp"
#include "grundy/solve/renumber.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "run_process.hpp"
#include "test_graphs.hpp"

namespace grundy {
namespace {

using test_support::read_file;
using test_support::TempDir;

std::string error_of(const std::string& bytes) {
  try {
    read_gcsr(bytes, "f.gcsr", test_support::loops(2, 4, 4));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Gcsr, RoundTripKeepsEveryArray) {
  TempDir dir;
  for (Shape s : {Shape::uniform, Shape::chain, Shape::kron}) {
    const OwnedGame g = generate({.shape = s, .nodes = 3000, .edges = 20000, .tokens = 9, .seed = 4});
    write_gcsr(dir.file("g.gcsr"), g.view());
    const std::string bytes = read_file(dir.file("g.gcsr"));
    const GcsrGame f = read_gcsr(bytes, "g", {1});
    ASSERT_EQ(f.game.graph.n, g.n);
    ASSERT_EQ(f.game.graph.m, g.targets.size());
    EXPECT_TRUE(std::equal(g.offsets.begin(), g.offsets.end(), f.game.graph.offsets));
    EXPECT_TRUE(std::equal(g.targets.begin(), g.targets.end(), f.game.graph.targets));
    EXPECT_TRUE(std::equal(g.tokens.begin(), g.tokens.end(), f.game.tokens.begin()));
    EXPECT_TRUE(f.layers.empty());
    EXPECT_TRUE(f.layers.degree_runs.empty());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(f.game.graph.targets) % 64,
              reinterpret_cast<std::uintptr_t>(bytes.data()) % 64)
        << "arrays are 64-byte aligned in the file";
  }
}

TEST(Gcsr, LayeredFilesGiveTheSameValuesInTheUsersIds) {
  TempDir dir;
  // Degrees: powerlaw from 0 past 256 (unrolled runs below 24, the bitset
  // from 64), the last spec 32 to 63 (node by node). Each file is solved
  // with its degree runs and without (as files written before them are).
  for (const GenSpec& spec :
       {GenSpec{Shape::uniform, 4000, 30000, 5, 8, 6}, GenSpec{Shape::layered, 4000, 30000, 5, 8, 6},
        GenSpec{Shape::chain, 4000, 30000, 5, 8, 6}, GenSpec{Shape::powerlaw, 4000, 30000, 5, 8, 6},
        GenSpec{Shape::layered, 3000, 120000, 5, 9, 12}}) {
    const Shape s = spec.shape;
    const OwnedGame g = generate(spec);
    const auto want = serial_sg(g.graph()).to_vector();
    Layers layers = compute_layers(g.graph(), {1});
    OwnedGame r;
    r.n = g.n;
    r.offsets.resize(g.n + 1);
    r.targets.resize(g.targets.size());
    r.tokens.resize(g.tokens.size());
    Array<node_t> begin(layers.count() + 1), original(g.n);
    renumber_by_layers(g.view(), layers, {1},
                       {r.offsets.data(), r.targets.data(), r.tokens.data(), begin.data(), original.data()});
    write_gcsr(dir.file("l.gcsr"), r.view(), begin, original);
    const std::string bytes = read_file(dir.file("l.gcsr"));
    const GcsrGame f = read_gcsr(bytes, "l", {1});
    const std::span<const node_t> lb = f.layers.begin;
    ASSERT_EQ(lb.size(), layers.count() + 1);
    // Inside a layer: by out-degree, then by the user's id.
    for (std::size_t l = 0; l + 1 < lb.size(); ++l)
      for (node_t u = lb[l] + 1; u < lb[l + 1]; ++u)
        ASSERT_LT(std::pair(f.game.graph.degree(u - 1), f.original_ids[u - 1]),
                  std::pair(f.game.graph.degree(u), f.original_ids[u]))
            << shape_name(s) << " layer " << l << " id " << u;
    // A run starts exactly at each layer's start and each change of degree.
    std::vector<node_t> starts;
    for (node_t u = 0; u < g.n; ++u)
      if (std::binary_search(lb.begin(), lb.end(), u) || f.game.graph.degree(u) != f.game.graph.degree(u - 1))
        starts.push_back(u);
    starts.push_back(g.n);
    ASSERT_EQ(std::vector<node_t>(f.layers.degree_runs.begin(), f.layers.degree_runs.end()), starts) << shape_name(s);
    for (const StoredLayers& stored : {f.layers, StoredLayers{lb, {}}}) {
      const std::string how = std::string(shape_name(s)) + (stored.degree_runs.empty() ? ", no runs" : ", runs");
      const SgValues got = level_sg(f.game.graph, {1}, nullptr, stored);
      for (node_t u = 0; u < g.n; ++u) ASSERT_EQ(got[u], want[f.original_ids[u]]) << how;
      // The mex pass's batches, which layered ids take on large graphs only.
      const SgValues batched = level_sg(f.game.graph, test_support::eager(1, 4096, 1024), nullptr, stored);
      ASSERT_EQ(batched.to_vector(), got.to_vector()) << how;
      // Layers split between threads, into pieces that start mid-run.
      for (unsigned threads : {2u, 3u}) {
        SgValues split;
        in_arena(threads, [&] { split = level_sg(f.game.graph, test_support::eager(threads, 8, 5), nullptr, stored); });
        ASSERT_EQ(split.to_vector(), got.to_vector()) << how << ", " << threads << " threads";
      }
    }
    for (std::size_t t = 0; t < g.tokens.size(); ++t) EXPECT_EQ(f.original_ids[f.game.tokens[t]], g.tokens[t]);
  }
}

// A valid file to damage: small, with every section.
TEST(Gcsr, EveryTruncationIsRejected) {
  for (bool layered : {false, true}) {
    const std::string good = test_support::sample_gcsr(layered);
    ASSERT_EQ(error_of(good), "");
    for (std::size_t len = 0; len < good.size(); ++len) {
      const std::string e = error_of(good.substr(0, len));
      EXPECT_NE(e, "") << "truncated at " << len;
      EXPECT_EQ(e.rfind("f.gcsr: ", 0), 0u) << e;
    }
  }
}

TEST(Gcsr, EveryAlteredHeaderByteIsRejected) {
  const std::string good = test_support::sample_gcsr(true);
  std::uint32_t header_bytes;
  std::memcpy(&header_bytes, good.data() + 12, 4);
  for (std::size_t i = 0; i < header_bytes; ++i) {
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      EXPECT_NE(error_of(bad), "") << "byte " << i << " ^ " << int(flip);
    }
  }
}

TEST(Gcsr, DamagedArraysAreRejectedWithTheirPlace) {
  TempDir dir;
  const OwnedGame g = generate({Shape::uniform, 100, 400, 3, 4});
  write_gcsr(dir.file("g.gcsr"), g.view());
  const std::string good = read_file(dir.file("g.gcsr"));
  const GcsrGame f = read_gcsr(good, "g", {1});
  const auto at = [&](const void* p) { return static_cast<std::size_t>(static_cast<const char*>(p) - good.data()); };
  {
    std::string bad = good;  // offsets[10] > offsets[11]
    const edge_t big = g.offsets[11] + 1;
    std::memcpy(bad.data() + at(f.game.graph.offsets + 10), &big, 8);
    EXPECT_EQ(error_of(bad).find("f.gcsr: offsets decrease at node"), 0u) << error_of(bad);
  }
  {
    std::string bad = good;
    const node_t out = 100;
    std::memcpy(bad.data() + at(f.game.graph.targets + 7), &out, 4);
    EXPECT_EQ(error_of(bad), "f.gcsr: edge 8: target id 101 is out of range 1..100");
  }
  {
    std::string bad = good;
    const node_t out = 1000;
    std::memcpy(bad.data() + at(f.game.tokens.data() + 2), &out, 4);
    EXPECT_EQ(error_of(bad), "f.gcsr: token 3: node id 1001 is out of range 1..100");
  }
  EXPECT_EQ(error_of(""), "f.gcsr: not a .gcsr file (bad magic)");
  EXPECT_EQ(error_of(std::string(kGcsrMagic, 8)), "f.gcsr: truncated .gcsr header (8 bytes)");
}

TEST(Gcsr, RandomBytesAreRejected) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    std::string bytes(kGcsrMagic, 8);
    const std::size_t len = mix(seed, 1, 0) % 600;
    for (std::size_t i = 0; i < len; ++i) bytes += static_cast<char>(mix(seed, 2, i));
    EXPECT_NE(error_of(bytes), "");
  }
}

TEST(Gcsr, LayersThatLieAreRejected) {
  // Edges within one layer would make the stored order wrong: refused.
  const std::string good = test_support::sample_gcsr(true);
  const GcsrGame f = read_gcsr(good, "s", {1});
  std::string bad = good;
  const auto at = static_cast<std::size_t>(reinterpret_cast<const char*>(f.layers.begin.data() + 1) - good.data());
  node_t merged = f.layers.begin[2];
  std::memcpy(bad.data() + at, &merged, 4);  // layers 0 and 1 overlap
  EXPECT_NE(error_of(bad), "");
}

TEST(Gcsr, DegreeRunsThatLieAreRejected) {
  // The mex pass takes a run's rows at a fixed stride: a run that mixes
  // out-degrees, or reaches across a layer's start, would make it read the
  // wrong rows. Refused, naming the node.
  TempDir dir;
  const std::string path = dir.file("l.gcsr");
  GenSpec spec;
  spec.shape = Shape::uniform;
  spec.nodes = 300;
  spec.edges = 2000;
  spec.layers = 4;
  write_generated(spec, path, true, 1, ParallelConfig{1});  // what `grundy gen --layered` writes
  const std::string good = read_file(path);
  ASSERT_EQ(error_of(good), "");
  const GcsrGame f = read_gcsr(good, "l", {1});
  const std::span<const node_t> runs = f.layers.degree_runs, lb = f.layers.begin;
  ASSERT_GT(runs.size(), lb.size()) << "some layer holds several degrees";
  const auto at = [&](std::size_t r) {
    return static_cast<std::size_t>(reinterpret_cast<const char*>(runs.data() + r) - good.data());
  };
  const auto with_run = [&](std::size_t r, node_t start) {
    std::string bad = good;
    std::memcpy(bad.data() + at(r), &start, 4);
    return error_of(bad);
  };
  const auto degree = [&](node_t u) { return std::to_string(f.game.graph.degree(u)); };
  // The first run longer than one node that does not start a layer, and the
  // first one that does.
  std::size_t inner = 0, outer = 0;
  for (std::size_t r = 1; r + 1 < runs.size() && (inner == 0 || outer == 0); ++r) {
    if (runs[r + 1] - runs[r] < 2) continue;
    (std::binary_search(lb.begin(), lb.end(), runs[r]) ? outer : inner) = r;
  }
  ASSERT_NE(inner, 0u);
  ASSERT_NE(outer, 0u);
  // Run `inner` starting one node late: its first node joins the run before.
  const node_t u = runs[inner];
  EXPECT_EQ(with_run(inner, u + 1), "f.gcsr: degree runs: node " + std::to_string(u + 1) + " has out-degree " +
                                        degree(u) + ", but the run it lies in (from node " +
                                        std::to_string(runs[inner - 1] + 1) + ") has out-degree " +
                                        degree(runs[inner - 1]));
  // Run `outer` starting one node late: a layer starts inside a run.
  const node_t v = runs[outer];
  EXPECT_EQ(with_run(outer, v + 1), "f.gcsr: degree runs: node " + std::to_string(v + 1) +
                                        " starts a layer inside the run from node " +
                                        std::to_string(runs[outer - 1] + 1));
  EXPECT_EQ(with_run(2, runs[1]), "f.gcsr: degree run 1 is empty or out of order");
  EXPECT_EQ(with_run(runs.size() - 1, f.game.graph.n - 1), "f.gcsr: degree runs do not cover nodes 1..N");
}

}  // namespace
}  // namespace grundy
