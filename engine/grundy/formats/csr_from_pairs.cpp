#include "grundy/formats/csr_from_pairs.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

#include "grundy/primitives/simd/pair_split.hpp"

namespace grundy {
namespace {

// Rows of pairs grouped by source, in two passes over blocks of edges.
// The first, eight pairs a step (primitives/simd/pair_split.hpp), copies
// each target (its own slot, whatever the order), finds the first
// self-loop, and checks that no source is smaller than the one before it;
// only then does the second write the offsets: node u's row starts at the
// first edge whose source is u or more, so each offset is written by the
// one edge where the sources step past it (blocks of grouped pairs write
// disjoint nodes; ungrouped ones would not). False when the pairs are not
// grouped: a block stops at its first fall, and neither the targets nor
// the offsets are then complete.
bool grouped_rows(node_t n, std::span<const node_t> pairs, OwnedGame& out, const ParallelConfig& pc,
                  std::atomic<std::size_t>& loop) {
  const std::size_t m = pairs.size() / 2;
  edge_t* const off = out.offsets.data();
  node_t* const targets = out.targets.data();
  const node_t* const p = pairs.data();
  std::atomic<bool> grouped{true};
  for_range(pc, 0, m, [&](std::size_t b, std::size_t e) {
    node_t before = b == 0 ? 0 : p[2 * b - 2];
    std::size_t first_loop = SIZE_MAX;
    bool in_order = true;
    for (std::size_t i = b; i < e && in_order; i += 8) {
      const std::size_t take = std::min<std::size_t>(8, e - i);  // the block's last pairs may be fewer
      const simd::PairsFound f = take == 8 ? simd::split_pairs8(p + 2 * i, before, targets + i)
                                           : simd::split_pairs_portable(p + 2 * i, take, before, targets + i);
      in_order = f.ordered;
      if (f.loops != 0 && first_loop == SIZE_MAX) first_loop = i + static_cast<std::size_t>(std::countr_zero(f.loops));
      before = p[2 * (i + take) - 2];
    }
    if (!in_order) grouped.store(false, std::memory_order_relaxed);
    if (first_loop != SIZE_MAX) lower_to(loop, first_loop);
  });
  if (!grouped.load()) return false;
  for_range(pc, 0, m, [&](std::size_t b, std::size_t e) {
    // The rows after the source before the block start in it; that source's
    // own row belongs to an earlier block. Backwards, each edge writes its
    // source's row start, so a row's first edge writes last: a store per
    // edge, and a branch only where rows are empty (rare), instead of one
    // on "new row?" per edge, mispredicted at every short row.
    const std::size_t first_row = b == 0 ? 0 : std::size_t{p[2 * b - 2]} + 1;
    std::size_t j = b;
    while (j < e && p[2 * j] < first_row) ++j;
    for (std::size_t i = e; i-- > j;) {
      const std::size_t s = p[2 * i];
      const std::size_t before = i == j ? first_row : std::size_t{p[2 * i - 2]} + 1;
      off[s] = i;
      for (std::size_t r = before; r < s; ++r) off[r] = i;  // empty rows
    }
  });
  // The rows after the last source are empty, and end at m.
  for (std::size_t u = m == 0 ? 0 : std::size_t{pairs[2 * m - 2]} + 1; u <= n; ++u) off[u] = m;
  return true;
}

}  // namespace

std::optional<std::size_t> csr_from_pairs(node_t n, std::span<const node_t> pairs, OwnedGame& out,
                                          const ParallelConfig& pc) {
  const std::size_t m = pairs.size() / 2;
  out.n = n;
  out.offsets.resize(std::size_t{n} + 1);
  out.targets.resize(m);
  // Blocks of many edges: the pass streams memory, and a task costs more
  // than a few edges; below two blocks it runs inline (a judge-sized text
  // then never wakes the thread pool).
  ParallelConfig blocks = pc;
  blocks.grain = std::max<std::size_t>(pc.grain, std::size_t{1} << 16);
  blocks.min_parallel = std::max<std::size_t>(pc.min_parallel, 2 * blocks.grain);
  std::atomic<std::size_t> loop{SIZE_MAX};
  if (!grouped_rows(n, pairs, out, blocks, loop)) return build_csr(n, pairs, out);
  if (loop.load() == SIZE_MAX) return std::nullopt;
  return loop.load();
}

}  // namespace grundy
