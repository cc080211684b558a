#include <string>

#include "grundy/formats/classic_text.hpp"
#include "grundy/io/output_file.hpp"

namespace grundy {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

// One edge "u v" a line, ids plus `base`, written a chunk at a time after
// what `chunk` already holds; `progress(edges_written)` after each chunk.
void write_edges(const CsrView& g, std::uint64_t base, std::string& chunk, OutputFile& out,
                 const std::function<void(std::uint64_t)>& progress) {
  for (node_t u = 0; u < g.n; ++u) {
    for (node_t v : g.successors(u)) {
      append_number(chunk, std::uint64_t{u} + base, ' ');
      append_number(chunk, std::uint64_t{v} + base, '\n');
    }
    if (chunk.size() >= kChunk) {
      out.write(chunk);
      chunk.clear();
      if (progress) progress(g.offsets[u + 1]);
    }
  }
}

}  // namespace

void write_classic(const GameView& game, OutputFile& out, const std::function<void(std::uint64_t)>& progress) {
  const CsrView& g = game.graph;
  std::string chunk;
  chunk.reserve(kChunk + 64);
  append_number(chunk, g.n, ' ');
  append_number(chunk, g.m, ' ');
  append_number(chunk, game.tokens.size(), '\n');
  write_edges(g, 1, chunk, out, progress);
  for (std::size_t i = 0; i < game.tokens.size(); ++i) {
    append_number(chunk, std::uint64_t{game.tokens[i]} + 1, i + 1 == game.tokens.size() ? '\n' : ' ');
    if (chunk.size() >= kChunk) {
      out.write(chunk);
      chunk.clear();
    }
  }
  out.write(chunk);
}

void write_edge_list(const GameView& game, OutputFile& out, const std::function<void(std::uint64_t)>& progress) {
  const CsrView& g = game.graph;
  std::string chunk;
  chunk.reserve(kChunk + 64);
  chunk.append("# nodes: ");
  append_number(chunk, g.n, '\n');
  chunk.append("# tokens:");
  for (const node_t t : game.tokens) {
    chunk.push_back(' ');
    append_number(chunk, t, ' ');
    chunk.pop_back();
  }
  chunk.push_back('\n');
  write_edges(g, 0, chunk, out, progress);
  out.write(chunk);
}

bool is_edge_list_path(std::string_view path) { return path.ends_with(".el"); }

}  // namespace grundy
