#include "grundy/formats/degree_runs.hpp"

namespace grundy {

std::vector<node_t> degree_run_starts(const CsrView& g, std::span<const node_t> layer_begin) {
  std::vector<node_t> starts;
  std::size_t next_layer = 0;
  for (node_t u = 0; u < g.n; ++u) {
    const bool new_layer = u == layer_begin[next_layer];
    next_layer += new_layer;
    // u == 0 starts a layer: the degree before it is never read.
    if (new_layer || g.degree(u) != g.degree(u - 1)) starts.push_back(u);
  }
  starts.push_back(g.n);
  return starts;
}

}  // namespace grundy
