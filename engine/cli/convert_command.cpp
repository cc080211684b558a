// grundy convert IN OUT.gcsr: classic text, a plain edge list (.el) or a
// .gcsr into a .gcsr, optionally renumbered by layers (--layered).
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
#include "grundy/jobs/generated_file.hpp"

namespace grundy::cli {
namespace {

struct ConvertOptions {
  std::string input, output;
  std::string from = "auto";
  std::vector<std::uint64_t> tokens;
  std::uint64_t base = 0;
  bool layered = false;
  bool quiet = false;
  unsigned threads = 0;
};

int run_convert(const ConvertOptions& o) {
  if (!is_gcsr_path(o.output)) {
    std::fprintf(stderr, "grundy: convert: the output must be a .gcsr file, not \"%s\"\n", o.output.c_str());
    return kUsage;
  }
  const bool edge_list = o.from == "el" || (o.from == "auto" && o.input.ends_with(".el"));
  if (!edge_list && (!o.tokens.empty() || o.base != 0)) {
    std::fprintf(stderr, "grundy: convert: --tokens and --base apply to edge lists (.el) only\n");
    return kUsage;
  }
  const ParallelConfig pc{resolve_threads(o.threads)};
  const MappedFile in(o.input);
  LoadedGame game;
  if (edge_list) {
    game.owned = parse_edge_list(in.bytes(), {in.name(), pc.threads, o.base, o.tokens});
    game.view = game.owned.view();
  } else {
    game = load_game(in.bytes(), in.name(), pc);
  }
  const CsrView& g = game.view.graph;
  std::uint64_t layer_count = 0;
  if (!game.layers.empty()) {
    // Already layered: stored as it is, layers and the user's ids included.
    write_gcsr(o.output, game.view, game.layers.begin, game.original_ids);
    layer_count = game.layers.begin.size() - 1;
  } else if (o.layered) {
    layer_count = write_layered_gcsr(o.output, game.view, pc, in.name());
  } else {
    // A .gcsr holds a DAG: a cycle is refused here, not when it is solved.
    naming_cycles(in.name(), [&] { (void)compute_layers(g, pc); });
    write_gcsr(o.output, game.view);
  }
  if (!o.quiet) {
    std::error_code ec;
    const auto bytes = static_cast<std::size_t>(std::filesystem::file_size(o.output, ec));
    std::fprintf(stderr, "grundy: wrote %s: N %u, M %llu, K %zu, %zu bytes (%.2f bytes/edge)%s\n", o.output.c_str(),
                 g.n, static_cast<unsigned long long>(g.m), game.view.tokens.size(), bytes,
                 g.m ? static_cast<double>(bytes) / static_cast<double>(g.m) : 0.0,
                 layer_count ? (", " + std::to_string(layer_count) + " layers").c_str() : "");
  }
  return kOk;
}

}  // namespace

Command add_convert(CLI::App& root) {
  auto opts = std::make_shared<ConvertOptions>();
  CLI::App* sub =
      root.add_subcommand("convert", "classic text, an edge list (.el) or .gcsr -> .gcsr (binary CSR, memory-mapped)");
  sub->add_option("input", opts->input, "input file (\"-\": stdin)")->required();
  sub->add_option("output", opts->output, "output .gcsr file (written whole, then renamed into place)")->required();
  sub->add_option("--from", opts->from,
                  "input format: auto (.el by extension, .gcsr or classic text by content), classic, el")
      ->check(CLI::IsMember({"auto", "classic", "el"}))
      ->default_str("auto");
  sub->add_option("--tokens", opts->tokens, "edge list: token node ids (comma-separated)")->delimiter(',');
  sub->add_option("--base", opts->base, "edge list: ids start at 0 (GAPBS) or 1")
      ->check(CLI::IsMember({0, 1}))
      ->default_val(0);
  sub->add_flag("--layered", opts->layered,
                "renumber nodes so that each topological layer is a contiguous id range (ordered by "
                "out-degree) and store the layers and their degree runs: solving then skips layering, "
                "reads memory in order and takes each run of equal out-degree by stride");
  sub->add_flag("-q,--quiet", opts->quiet, "no summary line on stderr");
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_convert(*opts); }); }};
}

}  // namespace grundy::cli
