// Distinct instances, each solved once a round by each path of one thread:
// `serial`, the level engine's depth-first walk, its layering and mex, and
// the level engine as its rules choose. A bench run solves one graph trial
// after trial, and a branch predictor that learns a small graph flatters
// whichever walk it learns; solved once each, in turn, the files show what
// a batch or a library loop over many graphs meets
// (docs/TUNING.md#depth-first-path, the pitfall). Each solve starts from a
// fresh scratch, as a single solve does.
//
//   grundy_distinct [--rounds R] FILE...     (R = 9)
//
// Prints, per path, the median over the rounds of the time the round's
// solves took together (with bench's 95 % interval for it), and its ratio
// to serial's.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/solve/depth_first.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/serial_solver.hpp"

namespace grundy {
namespace {

using Clock = std::chrono::steady_clock;

struct Path {
  const char* name;
  void (*solve)(const CsrView& g);
};

void serial(const CsrView& g) { serial_sg(g, nullptr); }

void walk(const CsrView& g) {
  DepthFirstScratch scratch;
  SgValues sg;
  depth_first_sg(g, scratch, sg);
}

void layered(const CsrView& g) {
  SolveConfig config{{.threads = 1}, {.depth_first_below = 0}};  // no walk, whatever the graph
  level_sg(g, config, nullptr);
}

void level(const CsrView& g) { level_sg(g, SolveConfig{{.threads = 1}}, nullptr); }

constexpr Path kPaths[] = {{"serial", serial}, {"walk", walk}, {"layering", layered}, {"level", level}};

int run(int argc, char** argv) {
  std::size_t rounds = 9;
  std::vector<std::string> names;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--rounds" && a + 1 < argc) {
      rounds = std::strtoull(argv[++a], nullptr, 10);
    } else {
      names.push_back(arg);
    }
  }
  if (names.empty() || rounds == 0) {
    std::fprintf(stderr, "usage: grundy_distinct [--rounds R] FILE...\n");
    return 2;
  }
  const ParallelConfig one{.threads = 1};
  std::vector<std::unique_ptr<MappedFile>> files;
  std::vector<LoadedGame> games;
  for (const std::string& name : names) {
    files.push_back(std::make_unique<MappedFile>(name));
    games.push_back(load_game(files.back()->bytes(), name, one));
  }
  constexpr std::size_t kCount = std::size(kPaths);
  std::vector<double> sums[kCount];
  for (std::size_t r = 0; r < rounds; ++r) {
    for (std::size_t p = 0; p < kCount; ++p) {
      double seconds = 0;
      for (const LoadedGame& game : games) {
        const Clock::time_point start = Clock::now();
        kPaths[p].solve(game.view.graph);
        seconds += std::chrono::duration<double>(Clock::now() - start).count();
      }
      sums[p].push_back(seconds);
    }
  }
  std::vector<cli::Summary> summary;
  for (std::size_t p = 0; p < kCount; ++p) summary.push_back(cli::Summary::of(sums[p]));
  std::printf("%zu file%s, %zu round%s: median of each round's sum (95%% interval)\n", games.size(),
              games.size() == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s");
  for (std::size_t p = 0; p < kCount; ++p) {
    const cli::Summary& t = summary[p];
    std::printf("%-9s %10.3f ms (%.3f-%.3f)  %5.2fx serial\n", kPaths[p].name, t.median * 1e3, t.ci_low * 1e3,
                t.ci_high * 1e3, t.median / summary[0].median);
  }
  return 0;
}

}  // namespace
}  // namespace grundy

int main(int argc, char** argv) {
  try {
    return grundy::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grundy_distinct: %s\n", e.what());
    return 1;
  }
}
