// The public API's files and layers (grundy/grundy.hpp), as `grundy info`,
// `convert` and `gen` use them: layering against the longest path, SG over
// given layers, per-node verdicts, save and load round trips in every
// format, load settings, and generate_file's bytes against Graph::generate.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "grundy/grundy.hpp"
#include "error_of.hpp"
#include "run_process.hpp"

namespace {

using grundy::test_support::read_file;
using grundy::test_support::TempDir;

using grundy::test_support::error_of;

// Nodes on the longest path that ends at u, counted by a memoized walk over
// the predecessors: the layer oracle.
std::vector<std::uint64_t> longest_paths(const grundy::Graph& g) {
  std::vector<std::vector<std::uint32_t>> predecessors(g.nodes());
  const auto offsets = g.offsets();
  const auto targets = g.targets();
  for (std::uint32_t u = 0; u < g.nodes(); ++u)
    for (std::uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) predecessors[targets[e]].push_back(u);
  std::vector<std::uint64_t> nodes_on(g.nodes(), 0);
  std::function<std::uint64_t(std::uint32_t)> walk = [&](std::uint32_t u) -> std::uint64_t {
    if (nodes_on[u]) return nodes_on[u];
    std::uint64_t best = 0;
    for (const std::uint32_t p : predecessors[u]) best = std::max(best, walk(p));
    return nodes_on[u] = best + 1;
  };
  for (std::uint32_t u = 0; u < g.nodes(); ++u) walk(u);
  return nodes_on;
}

TEST(ApiFiles, LayeringPutsEachNodeOnePastItsDeepestPredecessor) {
  for (const char* shape : {"uniform", "powerlaw", "layered", "chain"}) {
    const grundy::Graph g = grundy::Graph::generate(shape, 2000, 9000, 4, 7);
    for (unsigned threads : {1u, 2u, 4u}) {
      const grundy::Layering layers = grundy::layering(g, {.threads = threads});
      const std::vector<std::uint64_t> paths = longest_paths(g);
      ASSERT_EQ(layers.begin().size(), layers.depth() + 1);
      EXPECT_EQ(layers.depth(), *std::max_element(paths.begin(), paths.end())) << shape;
      std::vector<std::uint32_t> order(layers.order().begin(), layers.order().end());
      std::uint64_t widest = 0;
      for (std::size_t l = 0; l < layers.depth(); ++l) {
        widest = std::max(widest, layers.width(l));
        for (std::uint32_t i = layers.begin()[l]; i < layers.begin()[l + 1]; ++i)
          ASSERT_EQ(paths[layers.order()[i]], l + 1) << shape << ": node " << layers.order()[i] << " in layer " << l;
      }
      EXPECT_EQ(layers.widest(), widest);
      std::sort(order.begin(), order.end());
      for (std::uint32_t u = 0; u < g.nodes(); ++u) ASSERT_EQ(order[u], u) << "every node once";
      EXPECT_EQ(grundy::sg(g, layers, {.threads = threads, .verify = true}).to_vector(), grundy::sg(g).to_vector());
    }
  }
}

TEST(ApiFiles, LayersAreTheirGraphsAndNeedADag) {
  const grundy::Graph a = grundy::Graph::generate("uniform", 100, 300);
  const grundy::Graph b = grundy::Graph::generate("uniform", 100, 300);
  const grundy::Layering layers = grundy::layering(a);
  EXPECT_NE(error_of([&] { grundy::sg(b, layers); }).find("another graph's"), std::string::npos);
  EXPECT_NE(error_of([&] { grundy::sg(a, layers, {.engine = grundy::Engine::serial}); }).find("level engine"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)layers.width(layers.depth()); }).find("not a layer"), std::string::npos);
  const grundy::Graph cyclic = grundy::Graph::from_edges(3, std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                                                                {0, 1}, {1, 2}, {2, 0}});
  EXPECT_NE(error_of([&] { grundy::layering(cyclic); }).find("cycle: 1 -> 2 -> 3 -> 1"), std::string::npos);
}

// A token's verdict per node from values: the retrograde outcomes on a
// digraph with draws, and value != 0 on a DAG.
TEST(ApiFiles, NodeVerdictsAreTheOutcomes) {
  const grundy::Graph g = grundy::Graph::generate("digraph", 3000, 7000, 1, 5);
  const grundy::Values values = grundy::sg(g, {.loopy = true});
  const grundy::Outcomes outcomes = grundy::outcomes(g);
  std::size_t draws = 0;
  for (std::uint32_t u = 0; u < g.nodes(); ++u) {
    ASSERT_EQ(grundy::node_verdict(g, values, u), outcomes[u]) << "node " << u;
    draws += outcomes[u] == grundy::Verdict::draw;
  }
  EXPECT_GT(draws, 0u) << "the test needs draws";
  const grundy::Graph dag = grundy::Graph::generate("uniform", 500, 2000);
  const grundy::Values sg = grundy::sg(dag);
  for (std::uint32_t u = 0; u < dag.nodes(); ++u)
    ASSERT_EQ(grundy::node_verdict(dag, sg, u), sg[u] != 0 ? grundy::Verdict::win : grundy::Verdict::lose);
  EXPECT_NE(error_of([&] { grundy::node_verdict(dag, values, 0); }).find("another graph"), std::string::npos);
}

// Saved in each format and loaded back: the same graph in the user's ids
// (a layered .gcsr is renumbered, its original_ids map back), the same
// tokens and values; the source says what was read.
TEST(ApiFiles, SaveAndLoadRoundTripInEveryFormat) {
  TempDir dir;
  const grundy::Graph g = grundy::Graph::generate("powerlaw", 3000, 15000, 6, 2);
  const std::vector<std::uint32_t> want = grundy::sg(g).to_vector();
  EXPECT_EQ(g.source().format, "memory");
  struct Case {
    const char* file;
    bool layered;
    const char* format;
  };
  for (const Case c : {Case{"g.txt", false, "text"}, Case{"g.el", false, "el"}, Case{"g.gcsr", false, "gcsr"},
                       Case{"l.gcsr", true, "gcsr"}}) {
    const std::string path = dir.file(c.file);
    EXPECT_STREQ(grundy::Graph::save_format(path), c.format);
    const std::uint64_t layers = g.save(path, {.layered = c.layered});
    EXPECT_EQ(layers, c.layered ? grundy::layering(g).depth() : 0u) << c.file;
    const grundy::Graph back = grundy::Graph::load(path);
    const grundy::GraphSource source = back.source();
    EXPECT_EQ(source.format, c.format);
    EXPECT_EQ(source.bytes, read_file(path).size());
    EXPECT_EQ(source.layered, c.layered);
    EXPECT_EQ(source.degree_runs > 0, c.layered) << "a layered file stores its degree runs";
    ASSERT_EQ(back.nodes(), g.nodes());
    ASSERT_EQ(back.edges(), g.edges());
    const std::vector<std::uint32_t> got = grundy::sg(back).to_vector();
    const auto user = [&](std::uint32_t u) { return back.original_ids().empty() ? u : back.original_ids()[u]; };
    for (std::uint32_t u = 0; u < g.nodes(); ++u) ASSERT_EQ(got[u], want[user(u)]) << c.file << ": node " << u;
    ASSERT_EQ(back.tokens().size(), g.tokens().size());
    for (std::size_t t = 0; t < g.tokens().size(); ++t) EXPECT_EQ(user(back.tokens()[t]), g.tokens()[t]);
    // A layered file saved as text is in the user's ids again.
    const std::string text = dir.file(std::string(c.file) + ".txt");
    back.save(text);
    EXPECT_EQ(read_file(text), read_file(dir.file("g.txt"))) << c.file;
  }
}

TEST(ApiFiles, SaveRefusesWhatItCannotWrite) {
  TempDir dir;
  const grundy::Graph cyclic = grundy::Graph::from_edges(3, std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                                                                {0, 1}, {1, 2}, {2, 0}});
  EXPECT_NE(error_of([&] { cyclic.save(dir.file("c.gcsr")); }).find("cycle: 1 -> 2 -> 3 -> 1"), std::string::npos);
  EXPECT_FALSE(std::ifstream(dir.file("c.gcsr")).good()) << "no partial file";
  EXPECT_EQ(cyclic.save(dir.file("c.gcsr"), {.loopy = true}), 0u);
  EXPECT_EQ(grundy::Graph::load(dir.file("c.gcsr"), true).edges(), 3u);
  try {
    cyclic.save(dir.file("c.txt"), {.layered = true});
    ADD_FAILURE() << "a layered text";
  } catch (const grundy::ArgumentError& e) {
    EXPECT_STREQ(e.what(), "--layered needs a .gcsr output");
  }
  // 64-bit ids are written as the file's 32-bit ones.
  const std::vector<std::int64_t> offsets{0, 2, 3, 3}, targets{1, 2, 2};
  const grundy::Graph wide = grundy::Graph::view(offsets, targets);
  wide.save(dir.file("w.txt"));
  EXPECT_EQ(read_file(dir.file("w.txt")), "3 3 0\n1 2\n1 3\n2 3\n");
}

TEST(ApiFiles, LoadSettingsReadEdgeListsTheirWay) {
  TempDir dir;
  const std::string el = dir.write("e.txt", "# a comment\n1 2\n2 3\n");
  const grundy::Graph g = grundy::Graph::load(
      el, {}, {.format = grundy::LoadSettings::Format::edge_list, .base = 1, .tokens = {1, 3}});
  EXPECT_EQ(g.source().format, "el");
  EXPECT_EQ(g.nodes(), 3u);
  ASSERT_EQ(g.tokens().size(), 2u);
  EXPECT_EQ(g.tokens()[0], 0u);
  EXPECT_EQ(g.tokens()[1], 2u);
  const std::string text = dir.write("t.txt", "2 1 1\n1 2\n1\n");
  try {
    grundy::Graph::load(text, {}, {.base = 1});
    ADD_FAILURE() << "a base for classic text";
  } catch (const grundy::ArgumentError& e) {
    EXPECT_STREQ(e.what(), "--tokens and --base apply to edge lists (.el) only");
  }
  EXPECT_EQ(grundy::Graph::load(text, {}, {.format = grundy::LoadSettings::Format::classic}).source().format, "text");
}

// generate_file writes what Graph::generate makes, saved: the .gcsr
// straight from the generator and the one through save are the same bytes.
TEST(ApiFiles, GenerateFileWritesTheGeneratedGraph) {
  TempDir dir;
  for (const char* shape : {"uniform", "kron", "tournament", "subtraction"}) {
    for (const char* ext : {".gcsr", ".txt", ".el"}) {
      const grundy::GenSettings spec{.shape = shape, .nodes = 300, .edges = 1500, .tokens = 4, .seed = 3};
      const std::string direct = dir.file(std::string("d") + ext), saved = dir.file(std::string("s") + ext);
      std::uint64_t told = 0;
      grundy::GenSettings told_spec = spec;
      told_spec.progress = [&](std::uint64_t edges) { told = edges; };
      grundy::generate_file(told_spec, direct, {.threads = 2});
      grundy::Graph::generate(shape, 300, 1500, 4, 3).save(saved, {.loopy = grundy::shape_has_cycles(shape)});
      EXPECT_EQ(read_file(direct), read_file(saved)) << shape << ext;
      EXPECT_EQ(told, grundy::generated_edges(spec)) << "progress reaches every edge";
      const std::uint64_t planned = grundy::planned_bytes(spec, direct), written = read_file(direct).size();
      EXPECT_GE(planned, written) << shape << ext;
      if (std::string(ext) == ".gcsr") {
        EXPECT_LE(planned, written + 4096) << shape;
      }
    }
  }
  EXPECT_EQ(grundy::generated_edges({.shape = "tournament", .nodes = 10}), 45u);
  EXPECT_TRUE(grundy::shape_has_cycles("grid"));
  EXPECT_FALSE(grundy::shape_has_cycles("kron"));
  EXPECT_EQ(grundy::shapes().size(), 10u);
  EXPECT_THROW(grundy::generated_edges({.nodes = 0, .edges = 0, .tokens = 3}), grundy::ArgumentError);
  EXPECT_THROW(grundy::generate_file({.shape = "grid", .layered = true}, dir.file("x.gcsr")), grundy::ArgumentError);
  EXPECT_THROW(grundy::shape_has_cycles("round"), grundy::ArgumentError);
}

}  // namespace
