// grundy gen: deterministic synthetic DAGs, written as classic text, an edge
// list (.el) or .gcsr (chosen by the output's extension). A .gcsr is
// generated straight into the mapped output file, never through text or an
// edge list. The planned size is said first, and checked against the free
// space of the target's file system.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/io/output_file.hpp"
#include "progress.hpp"
#include "written_summary.hpp"

namespace grundy::cli {
namespace {

struct GenOptions {
  GenSettings spec;
  std::string out;
  unsigned threads = 0;
  std::uint64_t max_size = 0;  // 0: half the target's free space
  bool force = false;
  bool edges_given = false, layers_given = false;
};

// Says where a shape fixes what an option asked for, instead of ignoring it.
void note_overrides(const GenOptions& o) {
  if (quiet()) return;
  const std::uint64_t m = generated_edges(o.spec);
  if (o.edges_given && m != o.spec.edges) {
    const std::string& shape = o.spec.shape;
    const char* why = shape == "tournament"    ? "every pair: N(N-1)/2"
                      : shape == "chain"       ? "a path through every node needs N-1"
                      : shape == "subtraction" ? "take 1..k with k = M/N - 1, or put 2 back on an odd heap"
                                               : "this shape and node count";
    std::fprintf(stderr, "grundy: gen: note: --shape %s makes %s edges (%s); --edges %s is not used\n", shape.c_str(),
                 grouped(m).c_str(), why, grouped(o.spec.edges).c_str());
  }
  if (o.layers_given && o.spec.shape != "layered")
    std::fprintf(stderr, "grundy: gen: note: --layers applies to --shape layered only; --shape %s ignores it\n",
                 o.spec.shape.c_str());
}

// Refuses an output past --max-size, or by default past half the free
// space of the target's file system, unless --force.
void check_size(const GenOptions& o, std::uint64_t planned) {
  if (o.force || o.out.empty() || names_stdout(o.out)) return;
  std::filesystem::path dir = std::filesystem::absolute(o.out).parent_path();
  std::error_code ec;
  const auto space = std::filesystem::space(dir, ec);
  if (ec) throw InputError(o.out + ": cannot read the free space of " + dir.string() + ": " + ec.message());
  const std::uint64_t free = space.available;
  const std::uint64_t limit = o.max_size > 0 ? std::min<std::uint64_t>(o.max_size, free) : free / 2;
  if (planned <= limit) return;
  const std::string where = size_text(free) + " free on " + dir.string();
  const std::string what = o.max_size == 0      ? "half the " + where + " (--max-size)"
                           : o.max_size <= free ? "--max-size " + size_text(o.max_size)
                                                : "the " + where;
  throw InputError(o.out + ": the output would be about " + size_text(planned) + ", more than " + what +
                   "; give --force to write it anyway");
}

int run_gen(GenOptions o) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t instances = o.spec.instances;
  std::uint64_t m = 0;
  try {
    m = generated_edges(o.spec);  // the spec checked first
    note_overrides(o);
    const std::uint64_t planned = planned_bytes(o.spec, o.out);
    // The plan, on a terminal (elsewhere the summary line says the size, and
    // an error stays the one line on stderr).
    if (!quiet() && ::isatty(STDERR_FILENO) == 1)
      std::fprintf(stderr, "grundy: gen: %s: N %s, M %s, K %s%s -> %s, about %s\n", o.spec.shape.c_str(),
                   grouped(o.spec.nodes).c_str(), grouped(m).c_str(), grouped(o.spec.tokens).c_str(),
                   instances > 1 ? (", " + grouped(instances) + " instances").c_str() : "",
                   names_stdout(o.out) ? "<stdout>" : o.out.c_str(), size_text(planned).c_str());
    require_writable(o.out);
    check_size(o, planned);
    Progress progress("gen");
    o.spec.progress = [&](std::uint64_t done) {
      progress.update(done, m * instances, {grouped(done) + " of " + grouped(m * instances) + " edges"}, "edges");
    };
    generate_file(o.spec, o.out, {.threads = resolve_threads(o.threads)});
    progress.finish();
  } catch (const ArgumentError& e) {
    std::fprintf(stderr, "grundy: gen: %s\n", e.what());
    return kUsage;
  }
  say_written("gen", o.out, o.spec.nodes * instances, m * instances, o.spec.tokens * instances, 0,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return kOk;
}

}  // namespace

Command add_gen(CLI::App& root) {
  auto opts = std::make_shared<GenOptions>();
  CLI::App* sub = root.add_subcommand(
      "gen",
      "generate a deterministic synthetic DAG, or a digraph with cycles (--shape digraph, kron-digraph, grid, "
      "subtraction: solve those with --loopy), as .gcsr, an edge list .el, or text, by the output's extension");
  sub->add_option("out", opts->out,
                  "output file: *.gcsr binary, *.el an edge list, anything else classic text (\"-\": stdout)")
      ->type_name("FILE")
      ->required();
  sub->add_option("--shape", opts->spec.shape,
                  "the graph's shape: DAGs uniform, layered, chain, powerlaw, tournament, kron; with cycles digraph, "
                  "kron-digraph, grid (a torus with back edges), subtraction (a subtraction game with put-backs)")
      ->type_name("SHAPE")
      ->check(CLI::IsMember(shapes()))
      ->default_str("uniform");
  add_count(*sub, "-n,--nodes", opts->spec.nodes, "node count")->default_val(1000);
  CLI::Option* edges =
      add_count(*sub, "-m,--edges", opts->spec.edges, "edge count (tournament: N(N-1)/2; chain: at least N-1)")
          ->default_val(4000);
  add_count(*sub, "-k,--tokens", opts->spec.tokens, "token count")->default_val(10);
  add_count(*sub, "-s,--seed", opts->spec.seed, "random seed")->default_val(1);
  CLI::Option* layers =
      add_count(*sub, "--layers", opts->spec.layers, "layered shape: number of bands (its depth)")->default_val(8);
  sub->add_flag("--layered", opts->spec.layered,
                "renumber nodes so that each topological layer is a contiguous id range (ordered by "
                "out-degree), and store the layers and their degree runs (.gcsr only)");
  add_count(*sub, "--instances", opts->spec.instances,
            "write this many instances (seeds seed, seed+1, ...) concatenated into one text stream", 1)
      ->default_val(1);
  add_count(*sub, "--max-size", opts->max_size,
            "refuse an output larger than this many bytes (10G, 2^34; default: half the free space there)", 1)
      ->type_name("BYTES");
  sub->add_flag("--force", opts->force, "write the output however large it is planned to be");
  add_threads_option(*sub, opts->threads);
  add_quiet_option(*sub);
  return {sub, [opts, edges, layers] {
            opts->edges_given = edges->count() > 0;
            opts->layers_given = layers->count() > 0;
            return run_with_threads(opts->threads, [&] { return run_gen(*opts); });
          }};
}

}  // namespace grundy::cli
