#include "grundy/formats/csr_from_pairs.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <span>

#include "grundy/primitives/simd/pair_split.hpp"

namespace grundy {
namespace {

// Edges below this many are moved serially, front to back, before the
// parallel phases of compact_targets (each phase's writes must end where
// its reads begin).
constexpr std::size_t kSerialPrefix = std::size_t{1} << 16;

// Whether no source of the m pairs is smaller than the one before it, eight
// pairs a step (primitives/simd/pair_split.hpp), lowering `loop` to the
// first self-loop. A block stops at its first fall: ungrouped pairs go on to
// the counting sort without a full pass.
bool grouped(const node_t* p, std::size_t m, const ParallelConfig& pc, std::atomic<std::size_t>& loop) {
  std::atomic<bool> in_order_everywhere{true};
  for_range(pc, 0, m, [&](std::size_t b, std::size_t e) {
    node_t before = b == 0 ? 0 : p[2 * b - 2];
    node_t unused[8];  // the split's targets: only its findings are wanted here
    std::size_t first_loop = SIZE_MAX;
    bool in_order = true;
    for (std::size_t i = b; i < e && in_order; i += 8) {
      const std::size_t take = std::min<std::size_t>(8, e - i);  // the block's last pairs may be fewer
      const simd::PairsFound f = take == 8 ? simd::split_pairs8(p + 2 * i, before, unused)
                                           : simd::split_pairs_portable(p + 2 * i, take, before, unused);
      in_order = f.ordered;
      if (f.loops != 0 && first_loop == SIZE_MAX) first_loop = i + static_cast<std::size_t>(std::countr_zero(f.loops));
      before = p[2 * (i + take) - 2];
    }
    if (!in_order) in_order_everywhere.store(false, std::memory_order_relaxed);
    if (first_loop != SIZE_MAX) lower_to(loop, first_loop);
  });
  return in_order_everywhere.load();
}

// The offsets of grouped pairs: node u's row starts at the first edge whose
// source is u or more, so each offset is written by the one edge where the
// sources step past it (blocks of grouped pairs write disjoint nodes).
void write_offsets(node_t n, const node_t* p, std::size_t m, edge_t* off, const ParallelConfig& pc) {
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
  for (std::size_t u = m == 0 ? 0 : std::size_t{p[2 * m - 2]} + 1; u <= n; ++u) off[u] = m;
}

// Moves targets b..e-1 (p[2i + 1]) to p[b..e), eight a step from the
// ninth on (pairs 8 and up are read before any write reaches them).
void move_targets(node_t* p, std::size_t b, std::size_t e) {
  std::size_t i = b;
  for (; i < std::min<std::size_t>(e, 8); ++i) p[i] = p[2 * i + 1];
  for (; i + 8 <= e; i += 8) simd::split_pairs8(p + 2 * i, 0, p + i);
  for (; i < e; ++i) p[i] = p[2 * i + 1];
}

// Moves target i to p[i], for every i < m. Front to back a write never
// lands on a pair still to be read; in parallel, phase by phase: edges
// [L, 2L) read ids [2L, 4L) and write [L, 2L), which only the phase before
// read.
void compact_targets(node_t* p, std::size_t m, const ParallelConfig& pc) {
  const std::size_t serial = std::min(m, kSerialPrefix);
  move_targets(p, 0, serial);
  for (std::size_t lo = serial; lo < m;) {
    const std::size_t hi = std::min(2 * lo, m);
    for_range(pc, lo, hi, [&](std::size_t b, std::size_t e) { move_targets(p, b, e); });
    lo = hi;
  }
}

}  // namespace

std::optional<SelfLoop> csr_from_pairs(node_t n, std::size_t m, UnzeroedArray<node_t>& pairs, OwnedGame& out,
                                       const ParallelConfig& pc) {
  out.n = n;
  out.offsets.resize(std::size_t{n} + 1);
  // Blocks of many edges: the passes stream memory, and a task costs more
  // than a few edges; below two blocks they run inline (a judge-sized text
  // then never wakes the thread pool).
  ParallelConfig blocks = pc;
  blocks.grain = std::max<std::size_t>(pc.grain, std::size_t{1} << 16);
  blocks.min_parallel = std::max<std::size_t>(pc.min_parallel, 2 * blocks.grain);
  std::atomic<std::size_t> first_loop{SIZE_MAX};
  if (!grouped(pairs.data(), m, blocks, first_loop)) {
    const auto loop = build_csr(n, std::span<const node_t>(pairs).first(2 * m), out);
    if (!loop) return std::nullopt;
    return SelfLoop{*loop, pairs[2 * *loop]};
  }
  std::optional<SelfLoop> loop;
  if (first_loop.load() != SIZE_MAX) loop = SelfLoop{first_loop.load(), pairs[2 * first_loop.load()]};
  write_offsets(n, pairs.data(), m, out.offsets.data(), blocks);
  compact_targets(pairs.data(), m, blocks);
  out.targets.swap(pairs);
  out.targets.resize(m);
  return loop;
}

}  // namespace grundy
