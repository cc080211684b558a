// grundy gen: deterministic synthetic DAGs, written as classic text or as
// .gcsr (chosen by the output's extension). A .gcsr is generated straight
// into the mapped output file, never through text or an edge list.
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "grundy/jobs/generated_file.hpp"
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

int run_gen(GenOptions o) {
  try {
    o.spec.shape = parse_shape(o.shape);
    check_spec(o.spec);
    Progress progress("gen", generated_edges(o.spec) * o.instances);
    write_generated(o.spec, o.out, o.layered, o.instances, {resolve_threads(o.threads)},
                    [&](std::uint64_t done) { progress.update(done); });
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "grundy: gen: %s\n", e.what());
    return kUsage;
  }
  return kOk;
}

}  // namespace

Command add_gen(CLI::App& root) {
  auto opts = std::make_shared<GenOptions>();
  CLI::App* sub =
      root.add_subcommand("gen", "generate a deterministic synthetic DAG (text, or .gcsr by the output's extension)");
  sub->add_option("out", opts->out, "output file: *.gcsr for binary, anything else for text (\"-\": stdout)")
      ->required();
  sub->add_option("--shape", opts->shape, shape_names())->default_str("uniform");
  sub->add_option("-n,--nodes", opts->spec.nodes, "node count")->transform(count_text())->default_val(1000);
  sub->add_option("-m,--edges", opts->spec.edges, "edge count (tournament: N(N-1)/2; chain: at least N-1)")
      ->transform(count_text())
      ->default_val(4000);
  sub->add_option("-k,--tokens", opts->spec.tokens, "token count")->transform(count_text())->default_val(10);
  sub->add_option("-s,--seed", opts->spec.seed, "random seed")->transform(count_text())->default_val(1);
  sub->add_option("--layers", opts->spec.layers, "layered shape: number of bands (its depth)")
      ->transform(count_text())
      ->default_val(8);
  sub->add_flag("--layered", opts->layered,
                "renumber nodes so that each topological layer is a contiguous id range (ordered by "
                "out-degree), and store the layers and their degree runs (.gcsr only)");
  sub->add_option("--instances", opts->instances,
                  "write this many instances (seeds seed, seed+1, ...) concatenated into one text stream")
      ->default_val(1)
      ->transform(count_text())
      ->check(CLI::Validator(
          [](std::string& v) { return v == "0" ? std::string("--instances must be at least 1") : std::string(); },
          "N"));
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_gen(*opts); }); }};
}

}  // namespace grundy::cli
