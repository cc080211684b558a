// grundy gen: deterministic synthetic DAGs written as classic text.
#include <memory>

#include "command.hpp"
#include "grundy/classic_text.hpp"
#include "grundy/generator.hpp"
#include "grundy/output_file.hpp"

namespace grundy::cli {
namespace {

struct GenOptions {
  GenSpec spec;
  std::string shape = "uniform";
  std::string out;
};

int run_gen(GenOptions o) {
  o.spec.shape = parse_shape(o.shape);
  const OwnedGame game = generate(o.spec);
  OutputFile file(o.out);
  write_classic(game.view(), file);
  file.commit();
  return kOk;
}

}  // namespace

Command add_gen(CLI::App& root) {
  auto opts = std::make_shared<GenOptions>();
  CLI::App* sub = root.add_subcommand("gen", "generate a deterministic synthetic DAG");
  sub->add_option("out", opts->out, "output file (\"-\": stdout)")->required();
  sub->add_option("--shape", opts->shape, "uniform, chain or tournament")
      ->check(CLI::IsMember({"uniform", "chain", "tournament"}))
      ->default_str("uniform");
  sub->add_option("-n,--nodes", opts->spec.nodes, "node count")->default_val(1000);
  sub->add_option("-m,--edges", opts->spec.edges, "edge count (tournament: N(N-1)/2)")
      ->default_val(4000);
  sub->add_option("-k,--tokens", opts->spec.tokens, "token count")->default_val(10);
  sub->add_option("-s,--seed", opts->spec.seed, "random seed")->default_val(1);
  return {sub, [opts] { return run_gen(*opts); }};
}

}  // namespace grundy::cli
