#include "grundy/formats/loopy_file.hpp"

#include <string>

namespace grundy {
namespace {

// Stored id of each user id, for a layered file's renumbered nodes.
Array<node_t> stored_of_user(std::span<const node_t> original_ids) {
  Array<node_t> stored(original_ids.size());
  for (std::size_t u = 0; u < original_ids.size(); ++u) stored[original_ids[u]] = static_cast<node_t>(u);
  return stored;
}

template <class Line>
void write_by_user(OutputFile& out, node_t n, std::span<const node_t> original_ids, const Line& line) {
  const Array<node_t> stored = stored_of_user(original_ids);
  std::string chunk;
  for (node_t user = 0; user < n; ++user) {
    line(stored.empty() ? user : stored[user], chunk);
    if (chunk.size() >= (1 << 20)) {
      out.write(chunk);
      chunk.clear();
    }
  }
  out.write(chunk);
}

}  // namespace

std::uint64_t write_loopy_values(OutputFile& out, const CsrView& graph, std::span<const sg_t> values,
                                 std::span<const node_t> original_ids) {
  std::uint64_t shortened = 0;
  write_by_user(out, graph.n, original_ids, [&](node_t u, std::string& chunk) {
    if (values[u] != kInfinite) {
      append_number(chunk, values[u]);
      return;
    }
    std::uint64_t more = 0;
    chunk += loopy_value_text(graph, values, u, kListedInfiniteSet, &more);
    shortened += more > 0;
    chunk += '\n';
  });
  return shortened;
}

void write_outcomes(OutputFile& out, std::span<const Outcome> outcomes, std::span<const node_t> original_ids) {
  write_by_user(out, static_cast<node_t>(outcomes.size()), original_ids, [&](node_t u, std::string& chunk) {
    chunk += static_cast<char>(outcomes[u]);
    chunk += '\n';
  });
}

}  // namespace grundy
