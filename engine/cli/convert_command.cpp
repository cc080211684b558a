// grundy convert IN OUT: classic text, an edge list (.el) or a .gcsr into
// any of the three, by OUT's extension; a .gcsr optionally renumbered by
// layers (--layered), a layered one exported in the user's ids.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string_view>

#include "command.hpp"
#include "grundy/io/output_file.hpp"
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

LoadSettings load_settings(const ConvertOptions& o) {
  LoadSettings s;
  s.format = o.from == "el"        ? LoadSettings::Format::edge_list
             : o.from == "classic" ? LoadSettings::Format::classic
                                   : LoadSettings::Format::automatic;
  s.base = o.base;
  s.tokens = o.tokens;
  return s;
}

int run_convert(const ConvertOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const bool binary = std::string_view(Graph::save_format(o.output)) == "gcsr";
  if (o.layered && !binary) throw UsageError("--layered needs a .gcsr output");
  if (o.layered && o.loopy) throw UsageError("--layered orders a DAG's layers; a graph with cycles (--loopy) has none");
  if (same_file(o.input, o.output)) throw UsageError(o.output + " is the input file; the output must name another");
  require_writable(o.output);  // before the input is read: a bad path fails first
  const Options api{.threads = resolve_threads(o.threads), .loopy = o.loopy};
  try {
    const Graph graph = Graph::load(o.input, api, load_settings(o));
    const std::uint64_t layer_count = graph.save(o.output, {.layered = o.layered, .loopy = o.loopy}, api);
    say_written("convert", o.output, graph.nodes(), graph.edges(), graph.tokens().size(), layer_count,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const ArgumentError& e) {
    throw UsageError(e.what());
  }
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
