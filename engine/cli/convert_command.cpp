// grundy convert IN OUT: classic text, an edge list (.el) or a .gcsr into
// any of the three, by OUT's extension; a .gcsr optionally renumbered by
// layers (--layered), a layered one exported in the user's ids.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "command.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/jobs/generated_file.hpp"
#include "grundy/solve/renumber.hpp"
#include "written_summary.hpp"

namespace grundy::cli {
namespace {

struct ConvertOptions {
  std::string input, output;
  std::string from = "auto";
  std::vector<std::uint64_t> tokens;
  std::uint64_t base = 0;
  bool layered = false;
  bool loopy = false;  // cycles and self-loops kept: a game for --loopy
  unsigned threads = 0;
};

// What the output's extension asks for.
enum class Output { gcsr, edge_list, classic };

Output output_kind(const std::string& path) {
  if (is_gcsr_path(path)) return Output::gcsr;
  return is_edge_list_path(path) ? Output::edge_list : Output::classic;
}

LoadedGame load_input(const ConvertOptions& o, const MappedFile& in, const ParallelConfig& pc) {
  const bool edge_list =
      o.from == "el" || (o.from == "auto" && input_format(in.bytes(), in.name()) == InputFormat::edge_list);
  if (!edge_list && (!o.tokens.empty() || o.base != 0))
    throw UsageError("--tokens and --base apply to edge lists (.el) only");
  LoadedGame game;
  if (edge_list) {
    game.owned = parse_edge_list(in.bytes(), {in.name(), pc.threads, o.base, o.tokens, nullptr, o.loopy});
    game.view = game.owned.view();
  } else if (o.from == "classic") {
    game.owned = parse_classic(in.bytes(), {.source = in.name(), .threads = pc.threads, .self_loops = o.loopy});
    game.view = game.owned.view();
  } else {
    game = load_game(in.bytes(), in.name(), pc, nullptr, o.loopy);
  }
  return game;
}

// A .gcsr, kept layered (with the user's ids) when it was, or layered now.
std::uint64_t write_binary(const ConvertOptions& o, const LoadedGame& game, const ParallelConfig& pc,
                           const std::string& source) {
  if (!game.layers.empty()) {
    write_gcsr(o.output, game.view, game.layers.begin, game.original_ids);
    return game.layers.begin.size() - 1;
  }
  if (o.layered) return write_layered_gcsr(o.output, game.view, pc, source);
  // A .gcsr holds a DAG unless --loopy: a cycle is refused here, not when it is solved.
  if (!o.loopy) naming_cycles(source, [&] { (void)compute_layers(game.view.graph, pc); });
  write_gcsr(o.output, game.view);
  return 0;
}

// Text or an edge list, in the user's ids (a layered file is un-layered).
void write_text(const ConvertOptions& o, const LoadedGame& game, Output kind) {
  OwnedGame restored;
  GameView view = game.view;
  if (!game.original_ids.empty()) {
    restored = restore_user_ids(game.view, game.original_ids);
    view = restored.view();
  }
  OutputFile out(o.output);
  if (kind == Output::edge_list)
    write_edge_list(view, out);
  else
    write_classic(view, out);
  out.commit();
}

int run_convert(const ConvertOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const Output kind = output_kind(o.output);
  if (o.layered && kind != Output::gcsr) throw UsageError("--layered needs a .gcsr output");
  if (o.layered && o.loopy) throw UsageError("--layered orders a DAG's layers; a graph with cycles (--loopy) has none");
  if (same_file(o.input, o.output)) throw UsageError(o.output + " is the input file; the output must name another");
  require_writable(o.output);  // before the input is read: a bad path fails first
  const ParallelConfig pc{resolve_threads(o.threads)};
  const MappedFile in(o.input);
  const LoadedGame game = load_input(o, in, pc);
  const std::uint64_t layer_count = kind == Output::gcsr ? write_binary(o, game, pc, in.name()) : 0;
  if (kind != Output::gcsr) write_text(o, game, kind);
  say_written("convert", o.output, game.view.graph.n, game.view.graph.m, game.view.tokens.size(), layer_count,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return kOk;
}

}  // namespace

Command add_convert(CLI::App& root) {
  auto opts = std::make_shared<ConvertOptions>();
  CLI::App* sub =
      root.add_subcommand("convert",
                          "between classic text, edge lists (.el, SNAP's # comments too) and .gcsr (binary CSR, "
                          "memory-mapped), either way");
  sub->add_option("input", opts->input, "input file (\"-\": stdin)")->type_name("FILE")->required();
  sub->add_option("output", opts->output,
                  "output by its extension: .gcsr, .el (an edge list, 0-based) or classic text (anything else, "
                  "\"-\": stdout); written whole, then renamed into place")
      ->type_name("FILE")
      ->required();
  sub->add_option("--from", opts->from,
                  "input format: auto (.el by extension, .gcsr or classic text by content), classic, el")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"auto", "classic", "el"}))
      ->default_str("auto");
  add_count(*sub, "--tokens", opts->tokens,
            "edge list: token node ids, comma-separated (default: its \"# tokens:\" comment, or none)")
      ->delimiter(',');
  add_count(*sub, "--base", opts->base, "edge list: ids start at 0 (GAPBS) or 1", 0, 1)->default_val(0);
  sub->add_flag("--layered", opts->layered,
                "renumber nodes so that each topological layer is a contiguous id range (ordered by "
                "out-degree) and store the layers and their degree runs: solving then skips layering, "
                "reads memory in order and takes each run of equal out-degree by stride");
  sub->add_flag("--loopy", opts->loopy,
                "keep cycles and self-loops: a game with cycles, for solve --loopy (without it a cycle is an error)");
  add_quiet_option(*sub);
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_convert(*opts); }); }};
}

}  // namespace grundy::cli
