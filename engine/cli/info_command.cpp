// grundy info FILE: the facts of a graph, for people or (--json) machines.
#include <bit>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "api_views.hpp"
#include "command.hpp"
#include "grundy/api/timer_observer.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

struct InfoOptions {
  std::string input;
  std::string loopy;
  bool json = false;
  unsigned threads = 0;
};

// Counts of values in power-of-two buckets: 0, 1, 2-3, 4-7, ...
struct Histogram {
  std::vector<std::uint64_t> count;
  std::uint64_t max = 0;
  double sum = 0;

  void add(std::uint64_t v) {
    const std::size_t b = v == 0 ? 0 : static_cast<std::size_t>(std::bit_width(v));
    if (count.size() <= b) count.resize(b + 1, 0);
    ++count[b];
    max = std::max(max, v);
    sum += static_cast<double>(v);
  }
  static std::uint64_t low(std::size_t b) { return b == 0 ? 0 : std::uint64_t{1} << (b - 1); }
  static std::uint64_t high(std::size_t b) { return b == 0 ? 0 : (std::uint64_t{1} << b) - 1; }
};

std::string histogram_json(const Histogram& h) {
  std::string s = "[";
  for (std::size_t b = 0; b < h.count.size(); ++b)
    s += (b ? ", " : "") + std::string("{\"min\": ") + std::to_string(Histogram::low(b)) +
         ", \"max\": " + std::to_string(Histogram::high(b)) + ", \"count\": " + std::to_string(h.count[b]) + "}";
  return s + "]";
}

void print_histogram(const char* title, const Histogram& h) {
  std::printf("%s\n", title);
  for (std::size_t b = 0; b < h.count.size(); ++b)
    if (h.count[b])
      std::printf("  %10llu..%-10llu %12llu\n", static_cast<unsigned long long>(Histogram::low(b)),
                  static_cast<unsigned long long>(Histogram::high(b)), static_cast<unsigned long long>(h.count[b]));
}

// What info reports, gathered once, printed as text or JSON.
struct Facts {
  std::string file;
  GraphSource source;
  std::uint32_t n = 0;
  std::uint64_t m = 0;
  std::size_t k = 0;
  std::size_t depth = 0;
  std::uint64_t widest = 0;
  std::uint64_t sources = 0, sinks = 0;  // nodes no edge enters, nodes no edge leaves
  std::uint32_t nim_sum = 0;
  Verdict verdict = Verdict::lose;
  Histogram degree, in_degree, values;
  std::vector<PhaseTimer::Phase> phases;
  // --loopy: the verdict may be a draw, values may be infinite, and there
  // is no depth; what the engine did instead.
  LoopyMode loopy = LoopyMode::off;
  std::uint64_t self_loops = 0, peeled = 0, peel_rounds = 0, stages = 0, infinite = 0;
  std::uint64_t wins = 0, losses = 0, draws = 0;  // single-token outcomes per node
  double per_edge() const { return m ? static_cast<double>(source.bytes) / static_cast<double>(m) : 0.0; }
  double mean_degree() const { return n ? degree.sum / n : 0.0; }
};

// The degree facts every mode reports.
void gather_degrees(const Graph& graph, Facts& f) {
  const std::span<const std::uint64_t> offsets = graph.offsets();
  const std::span<const std::uint32_t> targets = graph.targets();
  std::vector<std::uint32_t> in_degree(graph.nodes(), 0);
  for (const std::uint32_t v : targets) ++in_degree[v];
  for (std::uint32_t u = 0; u < graph.nodes(); ++u) {
    const std::uint64_t degree = offsets[u + 1] - offsets[u];
    f.degree.add(degree);
    f.in_degree.add(in_degree[u]);
    f.sources += in_degree[u] == 0;
    f.sinks += degree == 0;
    for (std::uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) f.self_loops += targets[e] == u;
  }
}

void count(Facts& f, Verdict v) {
  f.wins += v == Verdict::win;
  f.losses += v == Verdict::lose;
  f.draws += v == Verdict::draw;
}

// --loopy: the generalized values (or, with =outcome, the outcomes alone)
// and how the engine got them.
void gather_loopy(const Graph& graph, LoopyMode mode, const Options& api, PhaseTimer& timer, Facts& f) {
  f.loopy = mode;
  const std::span<const std::uint32_t> tokens = graph.tokens();
  if (mode == LoopyMode::outcome) {
    if (tokens.size() > 1)
      throw InputError(f.file + ": --loopy=outcome decides a single token, and this game has " +
                       std::to_string(tokens.size()) + " (--loopy decides sums)");
    const Outcomes out = grundy::outcomes(graph, api);
    timer.start("statistics");
    for (std::size_t u = 0; u < out.size(); ++u) count(f, out[u]);
    f.verdict = tokens.empty() ? Verdict::lose : out[tokens[0]];
    return;
  }
  const Values values = grundy::sg(graph, api);
  timer.start("statistics");
  f.peeled = timer.loopy.peeled;
  f.peel_rounds = timer.loopy.peel_rounds;
  f.stages = timer.loopy.stages.size();
  for (std::uint32_t u = 0; u < graph.nodes(); ++u) {
    count(f, node_verdict(graph, values, u));
    if (values[u] != Values::infinite) f.values.add(values[u]);
    else ++f.infinite;
  }
  const Answer answer = grundy::solve(graph, values, tokens);
  f.verdict = answer.verdict;
  f.nim_sum = answer.nim_sum;
}

// Every value into the histogram, read as the engine stored them.
void add_values(const Values& values, Histogram& h) {
  std::visit([&](auto stored) {
    for (const auto v : stored) h.add(v);
  }, span_of(values));
}

// Layers the graph again even when the file stores layers (a file's layers
// need only respect the edges, and the depth is the graph's, not the
// file's), takes every SG value over those layers, and sums the
// distributions.
Facts gather(const Graph& graph, LoopyMode mode, const Options& api, PhaseTimer& timer) {
  Facts f;
  f.file = graph.name();
  f.source = graph.source();
  f.n = graph.nodes();
  f.m = graph.edges();
  f.k = graph.tokens().size();
  if (mode != LoopyMode::off) {
    gather_loopy(graph, mode, api, timer, f);
    gather_degrees(graph, f);
    timer.stop();
    f.phases = timer.phases();
    return f;
  }
  const Layering layers = grundy::layering(graph, api);
  const Values values = grundy::sg(graph, layers, api);
  timer.start("statistics");
  f.depth = layers.depth();
  f.widest = layers.widest();
  gather_degrees(graph, f);
  const Answer answer = grundy::solve(graph, values, graph.tokens());
  f.verdict = answer.verdict;
  f.nim_sum = answer.nim_sum;
  add_values(values, f.values);
  timer.stop();
  f.phases = timer.phases();
  return f;
}

// Keys are identifiers (no spaces): a phase "map input" is "map_input".
std::string json_key(std::string name) {
  for (char& c : name)
    if (c == ' ' || c == '-') c = '_';
  return json_string(name);
}

// --loopy's own fields: null where its mode does not compute them.
std::string loopy_json(const Facts& f) {
  if (f.loopy == LoopyMode::off) return "";
  const bool values = f.loopy == LoopyMode::values;
  const auto number = [&](std::uint64_t v) { return values ? std::to_string(v) : std::string("null"); };
  return ", \"loopy\": {\"mode\": \"" + std::string(values ? "values" : "outcome") +
         "\", \"self_loops\": " + std::to_string(f.self_loops) + ", \"peeled\": " + number(f.peeled) +
         ", \"peel_rounds\": " + number(f.peel_rounds) + ", \"stages\": " + number(f.stages) +
         ", \"infinite\": " + number(f.infinite) + ", \"outcomes\": {\"win\": " + std::to_string(f.wins) +
         ", \"lose\": " + std::to_string(f.losses) + ", \"draw\": " + std::to_string(f.draws) + "}}";
}

void print_json(const Facts& f) {
  std::string phases;
  for (const auto& [name, start, seconds] : f.phases)
    phases += (phases.empty() ? "" : ", ") + json_key(name) + ": " + json_number(seconds);
  std::printf(
      "{\"schema\": 2, \"file\": %s, \"format\": \"%s\", \"bytes\": %zu, \"bytes_per_edge\": %.4f, \"n\": %u, "
      "\"m\": %llu, \"k\": %zu, \"verdict\": \"%s\", \"xor\": %u, \"layered\": %s, \"degree_runs\": %llu, "
      "\"depth\": %s, \"widest_layer\": %s, \"sources\": %llu, \"sinks\": %llu, "
      "\"out_degree\": {\"max\": %llu, \"mean\": %.4f, \"histogram\": %s}, "
      "\"in_degree\": {\"max\": %llu, \"mean\": %.4f, \"histogram\": %s}, "
      "\"sg\": {\"max\": %llu, \"histogram\": %s}%s, \"seconds\": {%s}}\n",
      json_string(f.file).c_str(), f.source.format.c_str(), f.source.bytes, f.per_edge(), f.n, static_cast<unsigned long long>(f.m), f.k,
      verdict_word(f.verdict), f.nim_sum, f.source.layered ? "true" : "false", static_cast<unsigned long long>(f.source.degree_runs),
      f.loopy != LoopyMode::off ? "null" : std::to_string(f.depth).c_str(),
      f.loopy != LoopyMode::off ? "null" : std::to_string(f.widest).c_str(), static_cast<unsigned long long>(f.sources),
      static_cast<unsigned long long>(f.sinks), static_cast<unsigned long long>(f.degree.max), f.mean_degree(),
      histogram_json(f.degree).c_str(), static_cast<unsigned long long>(f.in_degree.max), f.mean_degree(),
      histogram_json(f.in_degree).c_str(), static_cast<unsigned long long>(f.values.max),
      histogram_json(f.values).c_str(), loopy_json(f).c_str(), phases.c_str());
}

void print_loopy_text(const Facts& f) {
  std::printf("self-loops     %llu (a pass: the token stays)\n", static_cast<unsigned long long>(f.self_loops));
  if (f.loopy == LoopyMode::values) {
    std::printf("acyclic part   %llu nodes cannot reach a cycle (plain SG values; longest path %llu)\n",
                static_cast<unsigned long long>(f.peeled),
                static_cast<unsigned long long>(f.peel_rounds ? f.peel_rounds - 1 : 0));
    std::printf("stages         %llu (Fraenkel's labelling, over the other %llu nodes)\n",
                static_cast<unsigned long long>(f.stages), static_cast<unsigned long long>(f.n - f.peeled));
    std::printf("infinite       %llu nodes\n", static_cast<unsigned long long>(f.infinite));
  }
  std::printf("outcomes       %llu win, %llu lose, %llu draw (one token on each node)\n",
              static_cast<unsigned long long>(f.wins), static_cast<unsigned long long>(f.losses),
              static_cast<unsigned long long>(f.draws));
}

void print_text(const Facts& f) {
  std::printf("file           %s (%s, %llu bytes, %.2f bytes/edge)\n", f.file.c_str(), f.source.format.c_str(),
              static_cast<unsigned long long>(f.source.bytes), f.per_edge());
  std::printf("nodes (N)      %u\nedges (M)      %llu\ntokens (K)     %zu\n", f.n, static_cast<unsigned long long>(f.m),
              f.k);
  if (f.loopy == LoopyMode::off) {
    std::printf("verdict        %s (xor of the tokens' SG values: %u)\n", verdict_word(f.verdict), f.nim_sum);
  } else if (f.loopy == LoopyMode::values) {
    std::printf("verdict        %s (xor of the tokens' finite values: %u)\n", verdict_word(f.verdict), f.nim_sum);
  } else {
    std::printf("verdict        %s (the single token's outcome)\n", verdict_word(f.verdict));
  }
  if (!f.source.layered) {
    std::printf("layered ids    no\n");
  } else if (f.source.degree_runs > 0) {
    std::printf("layered ids    yes, %llu degree runs\n", static_cast<unsigned long long>(f.source.degree_runs));
  } else {
    std::printf("layered ids    yes, no degree runs (written before grundy stored them; `grundy convert` adds them)\n");
  }
  if (f.loopy == LoopyMode::off) {
    std::printf("depth          %zu layers\nwidest layer   %llu nodes\n", f.depth,
                static_cast<unsigned long long>(f.widest));
  } else {
    print_loopy_text(f);
  }
  std::printf("sources        %llu nodes (in-degree 0)\nsinks          %llu nodes (out-degree 0, SG 0)\n",
              static_cast<unsigned long long>(f.sources), static_cast<unsigned long long>(f.sinks));
  std::printf("out-degree     max %llu, mean %.2f\nin-degree      max %llu, mean %.2f\nSG value       max %llu\n",
              static_cast<unsigned long long>(f.degree.max), f.mean_degree(),
              static_cast<unsigned long long>(f.in_degree.max), f.mean_degree(),
              static_cast<unsigned long long>(f.values.max));
  print_histogram("out-degree distribution (range, nodes):", f.degree);
  print_histogram("in-degree distribution (range, nodes):", f.in_degree);
  if (f.loopy != LoopyMode::outcome)
    print_histogram(f.loopy == LoopyMode::off ? "SG value distribution (range, nodes):"
                                              : "finite value distribution (range, nodes):",
                    f.values);
  std::printf("time:");
  for (const auto& [name, start, seconds] : f.phases) std::printf(" %s %.3f s;", name.c_str(), seconds);
  std::printf("\n");
}

int run_info(const InfoOptions& o) {
  const LoopyMode mode = parse_loopy_mode(o.loopy);
  PhaseTimer timer;
  api::TimerObserver observer(timer);
  const Options api{.threads = resolve_threads(o.threads), .loopy = mode != LoopyMode::off, .observer = &observer};
  const Graph graph = Graph::load(o.input, api);
  const Facts facts = gather(graph, mode, api, timer);
  if (o.json) {
    print_json(facts);
  } else {
    print_text(facts);
  }
  return kOk;
}

}  // namespace

Command add_info(CLI::App& root) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* sub =
      root.add_subcommand("info",
                          "graph facts: N, M, K, the verdict and xor, depth, widest layer, sources and sinks, out- and "
                          "in-degree and SG-value distributions");
  sub->add_option("input", opts->input, "classic text, .gcsr or an edge list (.el) (\"-\": stdin)")
      ->type_name("FILE")
      ->required();
  sub->add_flag("--json", opts->json, "one JSON object on stdout (\"schema\": 2; fields in docs/OUTPUTS.md)");
  add_loopy_option(*sub, opts->loopy, "the verdict, win/lose/draw counts and how the engine labelled the nodes");
  add_threads_option(*sub, opts->threads);
  add_quiet_option(*sub);
  return {sub, [opts] { return run_with_threads(opts->threads, [&] { return run_info(*opts); }); }};
}

}  // namespace grundy::cli
