#include <string>

#include "grundy/formats/classic_text.hpp"
#include "grundy/io/output_file.hpp"

namespace grundy {
void write_classic(const GameView& game, OutputFile& out, const std::function<void(std::uint64_t)>& progress) {
  const CsrView& g = game.graph;
  std::string chunk;
  chunk.reserve((1 << 20) + 64);
  append_number(chunk, g.n, ' ');
  append_number(chunk, g.m, ' ');
  append_number(chunk, game.tokens.size(), '\n');
  for (node_t u = 0; u < g.n; ++u) {
    for (node_t v : g.successors(u)) {
      append_number(chunk, std::uint64_t{u} + 1, ' ');
      append_number(chunk, std::uint64_t{v} + 1, '\n');
    }
    if (chunk.size() >= (1 << 20)) {
      out.write(chunk);
      chunk.clear();
      if (progress) progress(g.offsets[u + 1]);
    }
  }
  for (std::size_t i = 0; i < game.tokens.size(); ++i) {
    append_number(chunk, std::uint64_t{game.tokens[i]} + 1, i + 1 == game.tokens.size() ? '\n' : ' ');
    if (chunk.size() >= (1 << 20)) {
      out.write(chunk);
      chunk.clear();
    }
  }
  out.write(chunk);
}

void write_edge_list(const GameView& game, OutputFile& out, const std::function<void(std::uint64_t)>& progress) {
  const CsrView& g = game.graph;
  std::string chunk;
  chunk.reserve((1 << 20) + 64);
  chunk.append("# nodes: ");
  append_number(chunk, g.n, '\n');
  chunk.append("# tokens:");
  for (const node_t t : game.tokens) {
    chunk.push_back(' ');
    append_number(chunk, t, ' ');
    chunk.pop_back();
  }
  chunk.push_back('\n');
  for (node_t u = 0; u < g.n; ++u) {
    for (node_t v : g.successors(u)) {
      append_number(chunk, u, ' ');
      append_number(chunk, v, '\n');
    }
    if (chunk.size() >= (1 << 20)) {
      out.write(chunk);
      chunk.clear();
      if (progress) progress(g.offsets[u + 1]);
    }
  }
  out.write(chunk);
}

bool is_edge_list_path(std::string_view path) { return path.ends_with(".el"); }

}  // namespace grundy
