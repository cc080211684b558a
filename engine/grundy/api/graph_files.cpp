// The public API's files: Graph::load with a format chosen, Graph::save
// (what `grundy convert` writes), Graph::source (what `grundy info` says
// of a file), and generate_file (what `grundy gen` streams).
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "grundy/api/calls.hpp"
#include "grundy/api/states.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/grundy.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/jobs/generated_file.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/renumber.hpp"

namespace grundy {
namespace {

// The file's bytes as the settings say to read them: an edge list by name
// or by request (with its base and tokens), classic text by request, else
// whatever the content is.
LoadedGame load_as(const MappedFile& in, const ParallelConfig& pc, PhaseTimer* timer, bool self_loops,
                   const LoadSettings& s) {
  using Format = LoadSettings::Format;
  const bool edge_list = s.format == Format::edge_list ||
                         (s.format == Format::automatic && input_format(in.bytes(), in.name()) == InputFormat::edge_list);
  if (!edge_list && (!s.tokens.empty() || s.base != 0))
    throw std::invalid_argument("--tokens and --base apply to edge lists (.el) only");
  if (s.base > 1) throw std::invalid_argument("--base is 0 or 1, not " + std::to_string(s.base));
  LoadedGame game;
  if (edge_list) {
    game.owned = parse_edge_list(in.bytes(), {in.name(), pc.threads, s.base, s.tokens, timer, self_loops});
    game.format = "el";
  } else if (s.format == Format::classic) {
    game.owned =
        parse_classic(in.bytes(), {.source = in.name(), .threads = pc.threads, .timer = timer, .self_loops = self_loops});
  } else {
    return load_game(in.bytes(), in.name(), pc, timer, self_loops);
  }
  game.view = game.owned.view();
  return game;
}

// The graph as the writers take it: 64-bit ids narrowed into `narrowed`
// (every id is below n, which fits 32 bits), 32-bit ones viewed.
GameView game_of(const Graph::State& g, OwnedGame& narrowed) {
  if (const auto* v = std::get_if<CsrView>(&g.view)) return {*v, g.tokens};
  const WideCsrView& w = std::get<WideCsrView>(g.view);
  narrowed.n = w.n;
  narrowed.offsets.assign(w.offsets, w.offsets + std::size_t{w.n} + 1);
  narrowed.targets.resize(w.m);
  for (edge_t e = 0; e < w.m; ++e) narrowed.targets[e] = static_cast<node_t>(w.targets[e]);
  narrowed.tokens.assign(g.tokens.begin(), g.tokens.end());
  return narrowed.view();
}

// A .gcsr: a layered file stays layered (with the user's ids), a graph is
// layered now on request, and a DAG is checked acyclic unless it may hold
// cycles. Returns the layers stored.
std::uint64_t save_gcsr(const Graph::State& g, const GameView& game, const std::string& path,
                        const SaveSettings& settings, const ParallelConfig& pc) {
  if (!g.loaded.layers.empty()) {
    write_gcsr(path, game, g.loaded.layers.begin, g.original_ids);
    return g.loaded.layers.begin.size() - 1;
  }
  if (settings.layered) return write_layered_gcsr(path, game, pc, g.name);
  if (!settings.loopy) naming_cycles(g.name, [&] { (void)compute_layers(game.graph, pc); });
  write_gcsr(path, game);
  return 0;
}

// Text or an edge list, in the user's ids (a layered file is un-layered).
void save_text(const Graph::State& g, const GameView& stored, const std::string& path) {
  OwnedGame restored;
  GameView game = stored;
  if (!g.original_ids.empty()) {
    restored = restore_user_ids(stored, g.original_ids);
    game = restored.view();
  }
  OutputFile out(path);
  if (is_edge_list_path(path))
    write_edge_list(game, out);
  else
    write_classic(game, out);
  out.commit();
}

GenSpec spec_of(const GenSettings& s) { return {parse_shape(s.shape), s.nodes, s.edges, s.tokens, s.seed, s.layers}; }

}  // namespace

Graph Graph::load(const std::string& path, const Options& options, const LoadSettings& settings) {
  std::optional<PhaseTimer> own;
  PhaseTimer* const timer = api::timer_for(options, own);
  return api::translating(path, [&] {
    auto s = std::make_shared<State>();
    if (timer) timer->start("map input");
    s->file = std::make_unique<MappedFile>(path);
    s->name = s->file->name();
    s->loaded = api::with_threads(options.threads, [&](const ParallelConfig& pc) {
      return load_as(*s->file, pc, timer, options.loopy, settings);
    });
    api::end_phases(timer);
    // A parsed text's arrays moved with the game: view them where they are now.
    if (std::string_view(s->loaded.format) != "gcsr") s->loaded.view = s->loaded.owned.view();
    s->view = s->loaded.view.graph;
    s->tokens = s->loaded.view.tokens;
    s->original_ids = s->loaded.original_ids;
    return Graph(std::shared_ptr<const State>(std::move(s)));
  });
}

GraphSource Graph::source() const {
  const State& g = *state_;
  GraphSource s;
  s.format = g.file ? g.loaded.format : "memory";
  s.bytes = g.file ? g.file->bytes().size() : 0;
  s.layered = !g.loaded.layers.empty();
  s.degree_runs = g.loaded.layers.degree_runs.empty() ? 0 : g.loaded.layers.degree_runs.size() - 1;
  return s;
}

std::uint64_t Graph::save(const std::string& path, const SaveSettings& settings, const Options& options) const {
  const State& g = *state_;
  return api::translating(g.name, [&]() -> std::uint64_t {
    const bool binary = is_gcsr_path(path);
    if (settings.layered && !binary) throw std::invalid_argument("--layered needs a .gcsr output");
    if (settings.layered && settings.loopy)
      throw std::invalid_argument("--layered orders a DAG's layers; a graph with cycles (--loopy) has none");
    OwnedGame narrowed;
    const GameView game = game_of(g, narrowed);
    if (!binary) {
      save_text(g, game, path);
      return 0;
    }
    return api::with_threads(options.threads,
                             [&](const ParallelConfig& pc) { return save_gcsr(g, game, path, settings, pc); });
  });
}

const char* Graph::save_format(const std::string& path) {
  return is_gcsr_path(path) ? "gcsr" : is_edge_list_path(path) ? "el" : "text";
}

std::vector<std::string> shapes() { return shape_list(); }

bool shape_has_cycles(const std::string& shape) {
  return api::translating("<gen>", [&] { return has_cycles(parse_shape(shape)); });
}

std::uint64_t generated_edges(const GenSettings& spec) {
  return api::translating("<gen>", [&] {
    const GenSpec s = spec_of(spec);
    check_spec(s);
    return generated_edges(s);
  });
}

std::uint64_t planned_bytes(const GenSettings& spec, const std::string& path) {
  return api::translating("<gen>", [&] {
    const GenSpec s = spec_of(spec);
    check_spec(s);
    return planned_output_bytes(s, path, spec.layered, spec.instances);
  });
}

void generate_file(const GenSettings& spec, const std::string& path, const Options& options) {
  api::translating("<gen>", [&] {
    api::with_threads(options.threads, [&](const ParallelConfig& pc) {
      write_generated(spec_of(spec), path, spec.layered, spec.instances, pc, spec.progress);
      return 0;
    });
  });
}

}  // namespace grundy
