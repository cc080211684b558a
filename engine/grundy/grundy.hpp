// grundy's public C++ API: impartial games on graphs, solved by the engine
// the grundy command runs, from graphs built in code (viewed, not copied)
// or loaded from files. This header is self-contained: it includes only the
// standard library, whatever the engine is built with.
//
//   #include <grundy/grundy.hpp>
//   const grundy::Graph g = grundy::Graph::view(offsets, targets);   // CSR, 0-based
//   const grundy::Values sg = grundy::sg(g);                          // every node's SG value
//   const grundy::Answer a = grundy::solve(g, tokens);                // win/lose (draw: Options::loopy)
//
// CMake: find_package(grundy) and link grundy::engine. Every failure throws
// grundy::Error with the one-line message the CLI prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace grundy {

/// Every error of the API: bad input (a cycle names its nodes), a bad file,
/// a wrong option. what() is the CLI's line without its "grundy: ".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An Error in the call's own arguments, not in the data: an unknown shape,
/// an impossible generator request, an option a format cannot take (the
/// grundy command's usage errors, exit code 2).
class ArgumentError : public Error {
 public:
  using Error::Error;
};

/// The engine for DAGs (as `--algo`): automatic is the parallel level engine.
enum class Engine { automatic, level, serial, bgl };

/// Told of the engine's phases as they start and end ("map input", "parse",
/// "layering", "mex", "bgl build", "verify", ...): for a progress line or
/// timings of one's own (Options::observer). Called from the thread that
/// runs the call.
/// The grundy command's own observer hands the engine its phase timer, which
/// is told more: layering's parts and each mex step.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void phase_started(const std::string& name) { (void)name; }
  virtual void phase_finished(const std::string& name, double seconds) { (void)name, (void)seconds; }
};

struct Options {
  Engine engine = Engine::automatic;
  unsigned threads = 0;  ///< 0: every core
  /// A game with cycles: generalized SG values (Values::infinite where a
  /// value is infinite) and draws, as `--loopy`. Off, a cycle is an Error.
  bool loopy = false;
  /// Check every value computed before handing it on, as `--verify`: the
  /// Boost.Graph baseline and the mex rule (DAG), or Fraenkel's conditions
  /// and the outcome engine (loopy). A wrong value throws Error.
  bool verify = false;
  /// Told of each phase of the call (load, sg, verify); none by default.
  Observer* observer = nullptr;
};

/// How Graph::load reads a file, beyond Options (as `grundy convert` takes it).
struct LoadSettings {
  /// automatic: an edge list by its name (.el), .gcsr or classic text by content.
  enum class Format { automatic, classic, edge_list } format = Format::automatic;
  std::uint64_t base = 0;              ///< an edge list's first id: 0 (GAPBS) or 1
  std::vector<std::uint64_t> tokens{};  ///< an edge list's tokens (else its "# tokens:" comment)
};

/// How Graph::save writes, beyond its path (as `grundy convert` does).
struct SaveSettings {
  /// A .gcsr renumbered by topological layers, with the layers, their
  /// degree runs and the user's ids stored (solving then skips layering).
  /// A graph loaded from a layered .gcsr stays layered whatever this says.
  bool layered = false;
  /// Keep cycles: a .gcsr of a game with cycles (else a cycle is an Error).
  bool loopy = false;
};

/// Where a graph came from and how it is stored (`grundy info`'s first lines).
struct GraphSource {
  std::string format;          ///< "gcsr", "text", "el" (loaded); "memory" (viewed, built or generated)
  std::uint64_t bytes = 0;     ///< the file's size; 0 when not loaded
  bool layered = false;        ///< a layered .gcsr: renumbered by layers, original_ids() set
  std::uint64_t degree_runs = 0;  ///< runs of equal out-degree a layered .gcsr stores (0: none)
};

/// A directed graph in CSR form with 0-based ids: the successors of u are
/// targets[offsets[u] .. offsets[u+1]). Copies share their arrays.
class Graph {
 public:
  /// Views the caller's arrays, which must outlive the Graph: offsets has
  /// n + 1 entries from 0 to m, targets m ids below n. Checked (in parallel)
  /// before any use; the targets are never copied.
  static Graph view(std::span<const std::uint64_t> offsets, std::span<const std::uint32_t> targets,
                    std::string name = "<graph>");
  static Graph view(std::span<const std::int64_t> offsets, std::span<const std::int32_t> targets,
                    std::string name = "<graph>");
  /// 64-bit ids (SciPy's int64 indices) are read in place too: the engine
  /// runs over ids of either width, and never narrows a copy of them.
  static Graph view(std::span<const std::uint64_t> offsets, std::span<const std::uint64_t> targets,
                    std::string name = "<graph>");
  static Graph view(std::span<const std::int64_t> offsets, std::span<const std::int64_t> targets,
                    std::string name = "<graph>");
  /// 32-bit offsets are widened into an array the Graph owns (n + 1
  /// entries); the targets are still viewed.
  static Graph view(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> targets,
                    std::string name = "<graph>");
  static Graph view(std::span<const std::int32_t> offsets, std::span<const std::int32_t> targets,
                    std::string name = "<graph>");
  static Graph view(std::span<const std::uint32_t> offsets, std::span<const std::uint64_t> targets,
                    std::string name = "<graph>");
  static Graph view(std::span<const std::int32_t> offsets, std::span<const std::int64_t> targets,
                    std::string name = "<graph>");
  /// A graph of n nodes from (source, target) pairs, built into arrays it owns.
  static Graph from_edges(std::uint32_t n, std::span<const std::pair<std::uint32_t, std::uint32_t>> edges,
                          std::vector<std::uint32_t> tokens = {}, bool self_loops = false);
  /// Classic text, an edge list (.el) or .gcsr (memory-mapped), as the CLI
  /// reads them; `self_loops` as --loopy allows them. Its tokens come along.
  /// A layered .gcsr is the graph as stored, renumbered by layers (ids,
  /// tokens and values alike): original_ids() maps its ids to the user's.
  static Graph load(const std::string& path, bool self_loops = false);
  /// The same on options.threads threads, self-loops allowed with
  /// options.loopy, the phases told to options.observer.
  static Graph load(const std::string& path, const Options& options);
  /// The same with a format chosen, or an edge list's base and tokens.
  static Graph load(const std::string& path, const Options& options, const LoadSettings& settings);
  /// A generated graph, as `grundy gen --shape SHAPE -n nodes -m edges -k
  /// tokens -s seed --layers layers` makes it (the same bytes). Errors name
  /// it `name`, by default "gen:SHAPE".
  static Graph generate(const std::string& shape, std::uint64_t nodes, std::uint64_t edges, std::uint64_t tokens = 10,
                        std::uint64_t seed = 1, std::uint64_t layers = 8, unsigned threads = 0, std::string name = "");

  std::uint32_t nodes() const;
  std::uint64_t edges() const;
  std::span<const std::uint64_t> offsets() const;
  /// Bits a target id takes: 64 for a graph viewed over 64-bit ids, else 32.
  unsigned id_bits() const;
  /// The targets of a graph of 32-bit ids; Error when id_bits() is 64.
  std::span<const std::uint32_t> targets() const;
  /// The targets of a graph viewed over 64-bit ids; Error when id_bits() is 32.
  std::span<const std::uint64_t> wide_targets() const;
  /// The tokens a loaded or generated game came with (0-based), else none.
  std::span<const std::uint32_t> tokens() const;
  /// A layered .gcsr's stored id -> the user's id (0-based); else empty.
  std::span<const std::uint32_t> original_ids() const;
  const std::string& name() const;
  GraphSource source() const;

  /// Writes the graph and its tokens to `path`, by its extension: .gcsr
  /// (memory-mappable), .el (an edge list, 0-based, tokens in a comment) or
  /// classic text (anything else; "-" is stdout), in the user's ids. The
  /// file appears whole or not at all. Returns the layers a layered .gcsr
  /// stores, else 0. Errors: a cycle (unless settings.loopy), --layered
  /// asked of text (ArgumentError), I/O.
  std::uint64_t save(const std::string& path, const SaveSettings& settings = {}, const Options& options = {}) const;
  /// What save(path) writes: "gcsr", "el" or "text".
  static const char* save_format(const std::string& path);

  struct State;
  explicit Graph(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<const State> state_;
};

/// Every node's value, in an array the engine made (16 or 32 bits a value):
/// handed on without a copy (Python's result owns it).
class Values {
 public:
  /// A generalized value that is infinite (Options::loopy).
  static constexpr std::uint32_t infinite = 0xFFFFFFFFu;

  std::size_t size() const;
  std::uint32_t operator[](std::size_t u) const;
  /// Bits a value as stored: 16 (when the graph's edge count proves every
  /// value fits) or 32.
  unsigned width() const;
  /// The stored array: size() values of width() bits.
  const void* data() const;
  std::vector<std::uint32_t> to_vector() const;

  struct State;
  explicit Values(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<const State> state_;
};

/// SG values (DAG), or generalized values with Options::loopy.
Values sg(const Graph& graph, const Options& options = {});

/// A DAG's topological layers, as the level engine computes them (Kahn's
/// rounds): layer 0 holds the sources, and each node lies one layer past its
/// deepest predecessor, so every edge points to a later layer and depth() is
/// the longest path's node count. The engine takes them deepest first.
class Layering {
 public:
  std::size_t depth() const;
  /// Every node, layer after layer.
  std::span<const std::uint32_t> order() const;
  /// Layer l is order()[begin()[l] .. begin()[l + 1]): depth() + 1 entries.
  std::span<const std::uint32_t> begin() const;
  std::uint64_t width(std::size_t layer) const;
  std::uint64_t widest() const;

  struct State;
  explicit Layering(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<const State> state_;
};

/// The graph's layers, computed even when a layered .gcsr stores its own
/// (a file's layers need only respect the edges). A cycle is an Error.
Layering layering(const Graph& graph, const Options& options = {});
/// SG values by the level engine over layers already computed, so that a
/// caller who wants both pays for layering once.
Values sg(const Graph& graph, const Layering& layers, const Options& options = {});

enum class Verdict { win, lose, draw };
const char* verdict_word(Verdict v);  ///< "win", "lose", "draw"

/// Win, lose or draw for a single token on each node of a game with or
/// without cycles (as `--loopy=outcome`): the classic retrograde analysis,
/// O(N + M), no values. Cheaper than sg(loopy) where one token is all.
class Outcomes {
 public:
  std::size_t size() const;
  Verdict operator[](std::size_t u) const;

  struct State;
  explicit Outcomes(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<const State> state_;
};

/// Every node's outcome for a single token (options.loopy is implied).
Outcomes outcomes(const Graph& graph, const Options& options = {});

/// A single token's verdict on node u, read from values of this graph: a
/// DAG's SG value (0 loses), or a loopy value (a finite 0 loses; an
/// infinite value wins when a successor's value is 0, else draws).
Verdict node_verdict(const Graph& graph, const Values& values, std::uint32_t u);

/// Checks `values` (from sg(graph, ...)) as Options::verify does, on
/// options.threads threads: returns what was checked ("verified: Boost.Graph
/// baseline + mex rule, 6 nodes, 7 edges"), or throws Error naming the first
/// wrong node (in the user's ids) and what it should be.
std::string verify(const Graph& graph, const Values& values, const Options& options = {});
/// The same for loopy values and outcomes of one graph, each engine
/// checking the other: the values by Fraenkel's conditions, the outcomes
/// against the ones the values give.
std::string verify(const Graph& graph, const Values& values, const Outcomes& outcomes, const Options& options = {});

/// The mex rule alone, in parallel: every value the mex of its successors'
/// values. What verify adds to the Boost.Graph baseline, and needs no
/// second solver: the check for graphs too large for the baseline. Returns
/// what was checked, or throws Error naming the first wrong node.
std::string verify_mex_rule(const Graph& graph, const Values& values, const Options& options = {});
/// `values` against `reference`, values of the same graph known right (a
/// baseline computed once and reused, as `grundy bench` does over its
/// trials): node by node, loopy or not. Returns what was checked, or throws
/// Error naming the first node that differs and both values.
std::string verify(const Graph& graph, const Values& values, const Values& reference);
/// The same for outcomes.
std::string verify(const Graph& graph, const Outcomes& outcomes, const Outcomes& reference);

/// A winning move: the token's index in the token list, from and to (0-based).
struct TokenMove {
  std::size_t token = 0;
  std::uint32_t from = 0, to = 0;
};

struct Answer {
  Verdict verdict = Verdict::lose;
  std::uint32_t nim_sum = 0;        ///< XOR of the tokens' (finite) values
  std::optional<TokenMove> move;    ///< a winning move; empty on a loss or a draw
};

/// The game with these tokens (0-based node ids; several may share a node).
Answer solve(const Graph& graph, std::span<const std::uint32_t> tokens, const Options& options = {});
/// The same from values already computed by sg(graph, ...).
Answer solve(const Graph& graph, const Values& values, std::span<const std::uint32_t> tokens);
/// A single token's game from outcomes: its verdict and, when it wins, the
/// move to the lost successor decided earliest, so that play ends.
Answer solve(const Graph& graph, const Outcomes& outcomes, std::uint32_t token);

/// One instance of a batch: where it came from, and its verdict or error
/// (what `grundy batch --json` reports of it).
struct BatchResult {
  std::string name;          ///< the path; "path#index" inside a stream; "path:line" once its count is lost
  std::string path;          ///< the file it is in ("<stdin>" for -)
  std::uint64_t index = 0;   ///< 1-based place in its file; 0 when not known
  std::uint64_t line = 0;    ///< the line its text starts on; 0 for a binary file
  std::optional<Verdict> verdict;  ///< empty on an error or a mismatch
  std::string error;         ///< what was wrong with it (or, with mismatch, what verify found)
  bool mismatch = false;     ///< Options::verify found a wrong value
  bool verified = false;     ///< Options::verify checked it and found it right
  bool parsed = false;       ///< nodes, edges and tokens hold its counts
  bool solved = false;       ///< nim_sum (and depth, for a DAG) hold its answer
  std::uint64_t nodes = 0, edges = 0, tokens = 0;
  std::uint32_t nim_sum = 0;
  std::optional<std::uint64_t> depth;  ///< its layers, once a DAG is solved
  std::optional<TokenMove> move;       ///< as Answer's (0-based; a layered file's nodes in the user's ids)
  std::uint64_t bytes = 0;             ///< its bytes in the input
  double microseconds = 0;             ///< its load and solve
};

/// How many instances a batch has done, and how each went.
struct BatchTotals {
  std::uint64_t instances = 0, wins = 0, losses = 0, draws = 0, errors = 0, mismatches = 0;
  std::uint64_t verified = 0, verified_nodes = 0;  ///< instances that passed Options::verify, and their nodes
  std::uint64_t bytes = 0;        ///< the instances' bytes
  std::uint64_t bytes_read = 0;   ///< input read so far (progress)
  std::uint64_t total_bytes = 0;  ///< every input's size; 0 while a stream's is not known
};

/// How a batch runs, beyond Options.
struct BatchSettings {
  bool moves = true;              ///< find a winning move for each won instance
  bool outcome_only = false;      ///< with Options::loopy: a single token's win, lose or draw (`--loopy=outcome`)
  std::size_t stream_window = 0;  ///< bytes a stream on stdin is read at a time (0: the engine's choice)
  /// Told the totals so far as instances finish (one call at a time).
  std::function<void(const BatchTotals&)> progress;
  /// Told of each folder given that holds no instance file, before any work.
  std::function<void(const std::string& folder)> empty_folder;
};

/// What `grundy batch` does: files, folders (*.in, *.txt, *.gcsr, *.el,
/// recursively) and streams of concatenated instances, solved in parallel;
/// `each` gets every result in input order, as soon as it and those before
/// it are done (one call at a time), so a stream's lines flow while later
/// instances are still read. A bad instance is its own error. Returns the
/// totals.
BatchTotals batch(const std::vector<std::string>& paths, const Options& options,
                  const std::function<void(const BatchResult&)>& each, const BatchSettings& settings = {});

/// The same, every result in a vector (`grundy batch --move`).
std::vector<BatchResult> batch(const std::vector<std::string>& paths, const Options& options = {});

/// What `grundy gen` makes (its options); Graph::generate takes the same.
struct GenSettings {
  std::string shape = "uniform";  ///< one of shapes()
  std::uint64_t nodes = 1000;
  std::uint64_t edges = 4000;     ///< tournament: N(N-1)/2 whatever this says; chain: at least N-1
  std::uint64_t tokens = 10;
  std::uint64_t seed = 1;
  std::uint64_t layers = 8;       ///< the layered shape's bands
  bool layered = false;           ///< a layered .gcsr (as SaveSettings::layered)
  std::uint64_t instances = 1;    ///< text only: this many instances (seeds seed, seed+1, ...) as one stream
  /// Told the edges written so far, now and then.
  std::function<void(std::uint64_t edges)> progress{};
};

/// Every generator shape's name: DAGs and, for Options::loopy, digraphs with cycles.
std::vector<std::string> shapes();
/// True for the shapes that make cycles (solve them with Options::loopy).
bool shape_has_cycles(const std::string& shape);
/// The edges one instance of `spec` has (some shapes fix or raise the count
/// asked for). ArgumentError for an impossible spec.
std::uint64_t generated_edges(const GenSettings& spec);
/// About how many bytes generate_file(spec, path) writes: for .gcsr its
/// sections, with up to 4 KiB of header and padding over (and a layered
/// file's few degree runs under); for text an upper bound.
std::uint64_t planned_bytes(const GenSettings& spec, const std::string& path);
/// Writes the generated graph to `path` as Graph::save would (.gcsr, .el,
/// text), streamed: a plain .gcsr is generated straight into the mapped
/// file, never held twice in memory. The same bytes as `grundy gen`.
void generate_file(const GenSettings& spec, const std::string& path, const Options& options = {});

/// The library's version, "0.1.0".
const char* version();

}  // namespace grundy
