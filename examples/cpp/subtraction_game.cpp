// A subtraction game built in code and solved through grundy's API: heaps of
// 0..N counters, a move takes s counters for some s in S. Prints every
// heap's SG value, then the verdict and a winning move for heaps 7, 9, 10.
//   subtraction_game [N] [S, comma-separated]      (default: 20 1,3,4)
#include <grundy/grundy.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::uint32_t n = argc > 1 ? static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 10)) : 20;
  std::vector<std::uint32_t> moves;
  std::stringstream list(argc > 2 ? argv[2] : "1,3,4");
  for (std::string s; std::getline(list, s, ',');) moves.push_back(static_cast<std::uint32_t>(std::stoul(s)));
  // CSR by hand: heap h (node h) has an edge to h - s for every s <= h.
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint32_t> targets;
  for (std::uint32_t h = 0; h <= n; ++h) {
    for (std::uint32_t s : moves)
      if (s <= h) targets.push_back(h - s);
    offsets.push_back(targets.size());
  }
  try {
    const grundy::Graph game = grundy::Graph::view(offsets, targets, "subtraction");  // no copy
    const grundy::Values sg = grundy::sg(game, {.threads = 2});
    std::printf("SG values of heaps 0..%u:", n);
    for (std::size_t h = 0; h < sg.size(); ++h) std::printf(" %u", sg[h]);
    std::printf("\n");
    const std::vector<std::uint32_t> heaps{7, 9, 10};
    const grundy::Answer a = grundy::solve(game, sg, heaps);
    std::printf("heaps 7, 9, 10: %s (nim-sum %u)", grundy::verdict_word(a.verdict), a.nim_sum);
    if (a.move) std::printf(", move the heap of %u to %u", a.move->from, a.move->to);
    std::printf("\n");
  } catch (const grundy::Error& e) {
    std::fprintf(stderr, "subtraction_game: %s\n", e.what());
    return 1;
  }
  return 0;
}
