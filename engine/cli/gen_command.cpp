// grundy gen: deterministic synthetic DAGs, written as classic text or as
// .gcsr (chosen by the output's extension). A .gcsr is generated straight
// into the mapped output file, never through text or an edge list.
#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "grundy/classic_text.hpp"
#include "grundy/gcsr.hpp"
#include "grundy/generator.hpp"
#include "grundy/layering.hpp"
#include "grundy/output_file.hpp"
#include "grundy/renumber.hpp"
#include "progress.hpp"

namespace grundy::cli {
namespace {

struct GenOptions {
  GenSpec spec;
  std::string shape = "uniform";
  std::string out;
  bool layered = false;
  unsigned threads = 0;
  std::uint64_t instances = 1;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_gen(GenOptions o) {
  try {
    o.spec.shape = parse_shape(o.shape);
    check_spec(o.spec);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "grundy: gen: %s\n", e.what());
    return kUsage;
  }
  const ParallelConfig pc{resolve_threads(o.threads)};
  const GenSpec& s = o.spec;
  const std::uint64_t m = generated_edges(s);
  Progress progress("gen", m);
  const auto report = [&](std::uint64_t done) { progress.update(done); };
  const bool binary = ends_with(o.out, ".gcsr");
  if (o.layered && !binary) {
    std::fprintf(stderr, "grundy: gen: --layered needs a .gcsr output\n");
    return kUsage;
  }
  if (binary && !o.layered) {
    GcsrWriter w(o.out, static_cast<node_t>(s.nodes), m, s.tokens);
    generate_into(s, {w.offsets(), w.targets(), w.tokens()}, pc, report);
    progress.finish();
    w.commit();
    return kOk;
  }
  if (o.instances > 1) {
    if (binary) {
      std::fprintf(stderr, "grundy: gen: --instances needs a text output (a stream of instances)\n");
      return kUsage;
    }
    // A stream of concatenated instances, seeds seed, seed+1, ...: what
    // `grundy batch` reads.
    OutputFile file(o.out);
    GenSpec one = s;
    for (std::uint64_t i = 0; i < o.instances; ++i, ++one.seed) {
      write_classic(generate(one, pc).view(), file);
      progress.update(i * m);
    }
    progress.finish();
    file.commit();
    return kOk;
  }
  OwnedGame game = generate(s, pc);
  if (binary) {  // layered: renumber the generated graph by its layers
    Layers layers = compute_layers(game.graph(), pc);
    GcsrWriter w(o.out, game.n, m, s.tokens, layers.count());
    renumber_by_layers(game.view(), layers, pc,
                       {w.offsets(), w.targets(), w.tokens(), w.layer_begin(), w.original_ids()});
    w.commit();
    return kOk;
  }
  OutputFile file(o.out);
  write_classic(game.view(), file);
  file.commit();
  return kOk;
}

}  // namespace

Command add_gen(CLI::App& root) {
  auto opts = std::make_shared<GenOptions>();
  CLI::App* sub = root.add_subcommand(
      "gen", "generate a deterministic synthetic DAG (text, or .gcsr by the output's extension)");
  sub->add_option("out", opts->out, "output file: *.gcsr for binary, anything else for text (\"-\": stdout)")
      ->required();
  sub->add_option("--shape", opts->shape, shape_names())->default_str("uniform");
  sub->add_option("-n,--nodes", opts->spec.nodes, "node count")->default_val(1000);
  sub->add_option("-m,--edges", opts->spec.edges, "edge count (tournament: N(N-1)/2; chain: at least N-1)")
      ->default_val(4000);
  sub->add_option("-k,--tokens", opts->spec.tokens, "token count")->default_val(10);
  sub->add_option("-s,--seed", opts->spec.seed, "random seed")->default_val(1);
  sub->add_option("--layers", opts->spec.layers, "layered shape: number of bands (its depth)")
      ->default_val(8);
  sub->add_flag("--layered", opts->layered,
                "renumber nodes so that each topological layer is a contiguous id range, and store "
                "the layers (.gcsr only)");
  sub->add_option("--instances", opts->instances,
                  "write this many instances (seeds seed, seed+1, ...) concatenated into one text stream")
      ->default_val(1)
      ->check(CLI::PositiveNumber);
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_gen(*opts); }); }};
}

}  // namespace grundy::cli
