#include "grundy/solve/floor_kernel.hpp"

#include <atomic>

namespace grundy {

std::uint64_t floor_gather(const CsrView& g, const SgValues& values, const ParallelConfig& pc) {
  std::atomic<std::uint64_t> total{0};
  values.visit([&](auto v) {
    const auto* val = v.data();
    for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
      std::uint64_t sum = 0;
      for (edge_t i = g.offsets[b]; i < g.offsets[e]; ++i) sum += val[g.targets[i]];
      total.fetch_add(sum, std::memory_order_relaxed);
    });
  });
  return total.load();
}

}  // namespace grundy
