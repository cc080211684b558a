#include "grundy/jobs/batch.hpp"
#include "grundy/jobs/batch_items.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>

#include "grundy/formats/classic_text.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/game.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/formats/instance_stream.hpp"
#include "grundy/formats/text_tokens.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/primitives/pipeline.hpp"
#include "grundy/solve/solver.hpp"

namespace grundy {
namespace {

bool is_instance_file(const std::filesystem::path& p) {
  const auto ext = p.extension().string();
  return ext == ".in" || ext == ".txt" || ext == ".gcsr" || ext == ".el";
}

}  // namespace

namespace {

void solve_dag(const GameInput& in, InstanceResult& r, Workspace& ws, const BatchOptions& o, const ParallelConfig& pc) {
  const GameView& view = in.view;
  const StoredLayers& stored = in.layers;
  const CsrView& g = view.graph;
  if (o.algo == Algo::level || o.algo == Algo::automatic) {
    naming_cycles(r.name, [&] { level_sg(g, pc, ws.level, ws.sg, nullptr, stored); });
    r.depth = ws.level.depth;
  } else {
    ws.sg = naming_cycles(r.name, [&] { return solve_sg(g, o.algo, pc, nullptr, stored); });
    r.depth = stored.empty() ? compute_layers(g, pc).count() : stored.begin.size() - 1;
  }
  r.nim_sum = nim_sum(ws.sg, view.tokens);
  r.solved = true;
  r.status = r.nim_sum != 0 ? InstanceResult::Status::win : InstanceResult::Status::lose;
  if (o.move) r.move = user_move(view, ws.sg, in.original_ids);
  if (o.verify) {
    if (const auto bad = verify_sg(g, ws.sg, pc)) {
      r.status = InstanceResult::Status::mismatch;
      r.message = r.name + ": " + describe_mismatch(*bad, std::uint64_t{in.user_id(bad->node)} + 1);
    } else {
      r.verified = true;
    }
  }
}

// --loopy: win, lose or draw; nim_sum is the XOR of the finite values, and
// a graph with cycles has no depth.
void solve_with_cycles(const GameInput& in, InstanceResult& r, const BatchOptions& o, const ParallelConfig& pc) {
  const CsrView& g = in.view.graph;
  const auto user = [&](node_t u) { return std::uint64_t{in.user_id(u)} + 1; };
  const auto status = [](Outcome x) {
    switch (x) {
      case Outcome::win: return InstanceResult::Status::win;
      case Outcome::lose: return InstanceResult::Status::lose;
      case Outcome::draw: break;
    }
    return InstanceResult::Status::draw;
  };
  r.depth = InstanceResult::kNoDepth;
  LoopyValues values;
  OutcomeTable outcomes;
  if (o.loopy == LoopyMode::outcome) {
    require_single_token(in.view, r.name);
    outcomes = solve_outcomes(g, pc);
    const SingleTokenAnswer a = single_token_answer(in.view, outcomes, o.move, in.original_ids);
    r.status = status(a.outcome);
    r.move = a.move;
    if (o.verify) values = solve_loopy(g, pc);
  } else {
    values = solve_loopy(g, pc);
    const LoopyVerdict v = loopy_verdict(in.view, values);
    r.status = status(v.outcome);
    r.nim_sum = v.finite_xor;
    if (o.move) r.move = loopy_user_move(in.view, values, in.original_ids);
    if (o.verify) outcomes = solve_outcomes(g, pc);
  }
  r.solved = true;
  if (o.verify) {
    const std::string why = verify_loopy(g, values, outcomes.of, pc, user);
    if (why.empty()) {
      r.verified = true;
    } else {
      r.status = InstanceResult::Status::mismatch;
      r.message = r.name + ": " + why;
    }
  }
}

}  // namespace

void solve_item(const Item& item, InstanceResult& r, Workspace& ws, const BatchOptions& o, const ParallelConfig& pc) {
  const auto start = std::chrono::steady_clock::now();
  trace::Span span("instance", "batch", false);  // on the worker that solves it, named after it
  if (span.on()) span.label(r.name);
  r.bytes = item.span.end - item.span.begin;
  try {
    if (item.file == nullptr) throw InputError(item.open_error);
    if (!item.framing_error.empty()) throw InputError(item.framing_error);
    const std::string& path = item.file->name;
    // A stream's instance is parsed from its own start, naming its line.
    const std::string_view bytes = item.file->bytes.substr(0, item.span.end);
    const bool loopy = o.loopy != LoopyMode::off;
    const GameInput in = load_game(bytes, {path, pc.threads, nullptr, item.span.begin, item.line, loopy}, pc, ws.load);
    const GameView& view = in.view;
    const CsrView& g = view.graph;
    require_memory(planned_solve_bytes(g, o.algo, loopy, o.verify), r.name,
                   std::to_string(g.n) + " nodes and " + std::to_string(g.m) + " edges");
    r.n = g.n;
    span.arg("n", g.n);
    span.arg("m", g.m);
    r.m = g.m;
    r.k = view.tokens.size();
    r.parsed = true;
    if (loopy) {
      solve_with_cycles(in, r, o, pc);
    } else {
      solve_dag(in, r, ws, o, pc);
    }
  } catch (const InputError& e) {
    r.status = InstanceResult::Status::error;
    r.message = e.what();
    if (!item.note.empty()) r.message += "; " + item.note;
  } catch (const std::bad_alloc&) {
    r.status = InstanceResult::Status::error;
    r.message = r.name + ": out of memory";
  }
  r.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

namespace {

// Walks a folder recursively: its instance files, and an entry for every
// folder or link that cannot be read, so that nothing is dropped in silence.
void walk_folder(const std::filesystem::path& dir, std::vector<BatchInput>& out) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    out.push_back({dir.string(), "cannot read folder: " + ec.message()});
    return;
  }
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) {
      out.push_back({dir.string(), "cannot read folder: " + ec.message()});
      return;
    }
    const std::filesystem::path& p = it->path();
    std::error_code st;
    const auto status = it->status(st);  // follows links
    if (st || !std::filesystem::exists(status)) {
      if (it->is_symlink(st) && is_instance_file(p))
        out.push_back({p.string(), "a link to nothing (dangling symbolic link)"});
      else if (!it->is_symlink(st))
        out.push_back({p.string(), "cannot stat: " + (st ? st.message() : std::string("missing"))});
      continue;
    }
    if (std::filesystem::is_directory(status)) {
      walk_folder(p, out);
    } else if (is_instance_file(p)) {
      out.push_back({p.string(), {}});
    }
  }
}

}  // namespace

std::vector<BatchInput> expand_batch_inputs(const std::vector<std::string>& paths,
                                            std::vector<std::string>* empty_folders) {
  std::vector<BatchInput> inputs;
  for (const auto& p : paths) {
    std::error_code ec;
    if (p != "-" && std::filesystem::is_directory(p, ec)) {
      std::vector<BatchInput> found;
      walk_folder(p, found);
      if (found.empty() && empty_folders != nullptr) empty_folders->push_back(p);
      std::stable_sort(found.begin(), found.end(),
                       [](const BatchInput& a, const BatchInput& b) { return a.path < b.path; });
      inputs.insert(inputs.end(), found.begin(), found.end());
    } else {
      inputs.push_back({p, {}});
    }
  }
  return inputs;
}

namespace {

// A pipe's next bytes, for the WindowedFramer; 0 at its end.
std::size_t read_stdin(char* into, std::size_t room) {
  while (true) {
    const ssize_t got = ::read(STDIN_FILENO, into, room);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw InputError(std::string("<stdin>: read failed: ") + std::strerror(errno));
  }
}

// No byte has come to stdin for a millisecond: a pipe's writer has paused
// (at its end a read returns at once, so that is not idle). Not at once: a
// writer that is only slower than the reader leaves the pipe empty after
// nearly every read, and each pause ends a window and a chunk early
// (docs/TUNING.md#batch-windows).
bool stdin_idle() {
  pollfd fd{STDIN_FILENO, POLLIN, 0};
  return ::poll(&fd, 1, 1) == 0;
}

// A file's next bytes, for the WindowedFramer; 0 at its end. The file stays
// open while the framer holds the reader.
WindowedFramer::Reader file_reader(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  const std::shared_ptr<const int> open(new int(fd), [](const int* f) {
    ::close(*f);
    delete f;
  });
  return [open, path](char* into, std::size_t room) -> std::size_t {
    while (true) {
      const ssize_t got = ::read(*open, into, room);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR) throw InputError(path + ": read failed: " + std::strerror(errno));
    }
  };
}

// Whether a regular text file (a named pipe's bytes are read once, as it
// is opened) is read a window at a time instead of from its
// mapping: when its first instance, by the header's counts, takes a
// quarter of a window or less (a file of many instances). Its bytes are then
// copied into windows that are used again, which costs less here than
// faulting in a mapping's pages (docs/TUNING.md#batch-windows); an instance
// larger than a window would grow windows of fresh memory instead.
bool reads_in_windows(std::string_view text, std::size_t window) {
  std::uint64_t counts[3] = {};
  std::size_t pos = 0;
  for (std::uint64_t& c : counts) {
    while (pos < text.size() && text_tokens::is_space(text[pos])) ++pos;
    const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), c);
    if (ec != std::errc{} || end == text.data() + pos) return false;
    pos = static_cast<std::size_t>(end - text.data());
  }
  const auto [n, m, k] = counts;
  const std::uint64_t id_bytes = std::to_string(n).size() + 1;  // the widest id and its separator
  const std::uint64_t limit = window / 4 / id_bytes;
  return m <= limit && k <= limit && 2 * m + k <= limit;
}

bool stdin_is_stream() {
  struct stat st {};
  return ::fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode);
}

}  // namespace

bool ItemProducer::next(Item& item, InstanceResult& where) {
  while (true) {
    if (windows_) {
      if (pending_next_ == pending_.size() && !refill()) {
        windows_.reset();
        file_.reset();
        continue;
      }
      const FramedInstance& here = pending_[pending_next_++];
      place(here, windows_->whole_in_one() && pending_.size() == 1 && here.index == 1, item, where);
      return true;
    }
    if (framer_) {
      if (!lookahead_) {
        framer_.reset();
        file_.reset();
        continue;
      }
      const FramedInstance here = std::move(*lookahead_);
      lookahead_ = framer_->next();
      const bool only = here.index == 1 && !lookahead_ && first_;
      first_ = false;
      place(here, only, item, where);
      return true;
    }
    if (next_input_ == inputs_.size()) return false;
    const BatchInput& in = inputs_[next_input_++];
    where.name = where.path = in.path == "-" ? "<stdin>" : in.path;
    where.index = 1;
    if (!in.error.empty()) {
      item = {.open_error = in.path + ": " + in.error};
      return true;
    }
    if (in.path == "-" && stdin_is_stream()) {
      widen_pipe(STDIN_FILENO, stream_window_);
      start_windows(read_stdin, "<stdin>", stdin_idle);
      continue;
    }
    std::shared_ptr<const MappedFile> mapped;
    try {
      mapped = std::make_shared<const MappedFile>(in.path, MappedFile::Pages::on_first_read);
    } catch (const InputError& e) {
      item = {.open_error = e.what()};
      return true;
    }
    file_ = std::make_shared<const Source>(Source{mapped->name(), mapped->bytes(), mapped});
    InputFormat format;
    try {
      format = input_format(file_->bytes, file_->name);
    } catch (const InputError& e) {
      item = {.open_error = e.what()};
      file_.reset();
      return true;
    }
    if (format != InputFormat::classic) {
      item = {.file = file_, .span = {0, file_->bytes.size()}};  // a .gcsr or an edge list: read whole
      file_.reset();
      return true;
    }
    if (std::error_code ec; in.path != "-" && std::filesystem::is_regular_file(in.path, ec) &&
        reads_in_windows(file_->bytes, stream_window_)) {
      try {
        start_windows(file_reader(in.path), file_->name, {});
      } catch (const InputError& e) {
        item = {.open_error = e.what()};
        file_.reset();
        return true;
      }
      windows_->take_any_bytes();
      file_.reset();
      continue;
    }
    framer_.emplace(file_->bytes);
    first_ = true;
    lookahead_ = framer_->next();
    if (!lookahead_) {  // nothing but whitespace: an error to report
      framer_.reset();
      item = {.file = file_, .span = {0, file_->bytes.size()}};
      file_.reset();
      return true;
    }
  }
}

// Frames the input a window at a time from `read`, named `name`.
void ItemProducer::start_windows(WindowedFramer::Reader read, const std::string& name, WindowedFramer::Idle idle) {
  windows_.emplace(std::move(read), name, stream_window_, std::move(idle));
  windows_name_ = name;
  pending_.clear();
  pending_next_ = 0;
}

// The item of one framed instance of file_, and its result's name.
void ItemProducer::place(const FramedInstance& here, bool only, Item& item, InstanceResult& where) const {
  item = {.file = file_, .span = here.span, .note = here.note, .line = here.line};
  if (!here.error.empty()) item.framing_error = file_->name + ":" + std::to_string(here.line) + ": " + here.error;
  where.name = only              ? file_->name
               : here.index != 0 ? file_->name + "#" + std::to_string(here.index)
                                 : file_->name + ":" + std::to_string(here.line);
  where.path = file_->name;
  where.index = here.index;
}

// The stream's next window of instances; false at its end. A stream of
// nothing but whitespace is one item, parsed for its error.
bool ItemProducer::ready() const { return !windows_ || pending_next_ < pending_.size() || !stdin_idle(); }

bool ItemProducer::refill() {
  pending_next_ = 0;
  std::shared_ptr<const std::string> window;
  while (windows_->next(pending_, window)) {
    file_ = std::make_shared<const Source>(Source{windows_name_, *window, window});
    if (!pending_.empty()) return true;
    if (windows_->whole_in_one()) {
      FramedInstance whole;
      whole.span = {0, file_->bytes.size()};
      whole.index = 1;
      whole.line = 1;
      pending_.push_back(std::move(whole));
      return true;
    }
  }
  return false;
}

std::uint64_t total_input_bytes(const std::vector<BatchInput>& inputs) {
  if (std::any_of(inputs.begin(), inputs.end(), [](const BatchInput& in) { return in.path == "-"; })) return 0;
  std::uint64_t total = 0;
  for (const auto& in : inputs) {
    std::error_code ec;
    const auto size = !in.error.empty() ? 0 : std::filesystem::file_size(in.path, ec);
    total += ec ? 0 : static_cast<std::uint64_t>(size);
  }
  return total;
}

BatchCounts run_batch(const std::vector<BatchInput>& inputs, const BatchOptions& o,
                      const std::function<void(const InstanceResult&)>& sink,
                      const std::function<void(const BatchCounts&, std::uint64_t)>& progress) {
  const std::uint64_t total_bytes = total_input_bytes(inputs);
  BatchCounts counts;

  // A pipeline: splitting (serial, in order) runs while earlier instances
  // are solved (in parallel), and results leave in order as soon as they
  // and those before them are done.
  struct Chunk {
    std::vector<Item> items;
    std::vector<InstanceResult> results;
  };
  ItemProducer producer(inputs, o.stream_window);
  constexpr std::size_t kChunkItems = 16;
  const auto produce = [&]() -> Chunk* {
    auto chunk = std::make_unique<Chunk>();
    Item item;
    InstanceResult where;
    // A chunk closes early when the stream has paused: its instances are
    // answered before the producer writes more.
    while (chunk->items.size() < kChunkItems && (chunk->items.empty() || producer.ready()) &&
           producer.next(item, where)) {
      chunk->items.push_back(std::move(item));
      chunk->results.push_back(std::move(where));
      chunk->results.back().line = chunk->items.back().line;
      item = {};
      where = {};
    }
    return chunk->items.empty() ? nullptr : chunk.release();
  };
  PerThread<Workspace> workspaces;
  const auto solve = [&](Chunk* c) {
    for (std::size_t i = 0; i < c->items.size(); ++i) {
      const bool big = c->items[i].span.end - c->items[i].span.begin >= o.big_bytes;
      solve_item(c->items[i], c->results[i], workspaces.local(), o, big ? o.pc : ParallelConfig{1});
    }
    return c;
  };
  const auto emit = [&](Chunk* c) {
    const std::unique_ptr<Chunk> owned(c);  // unmaps a finished file with its last items
    for (std::size_t i = 0; i < c->items.size(); ++i) {
      counts.bytes_done += c->items[i].span.end - c->items[i].span.begin;
      counts.add(c->results[i]);
      sink(c->results[i]);
    }
    if (progress) progress(counts, total_bytes);
  };
  if (o.pc.threads > 1) {
    ordered_pipeline<Chunk>(o.pc.threads * 4, produce, solve, emit);
  } else {
    while (Chunk* c = produce()) emit(solve(c));
  }
  return counts;
}

void BatchCounts::add(const InstanceResult& r) {
  ++instances;
  bytes += r.bytes;
  if (r.verified) {
    ++verified;
    verified_nodes += r.n;
  }
  switch (r.status) {
    case InstanceResult::Status::win: ++wins; break;
    case InstanceResult::Status::lose: ++losses; break;
    case InstanceResult::Status::draw: ++draws; break;
    case InstanceResult::Status::error: ++errors; break;
    case InstanceResult::Status::mismatch: ++mismatches; break;
  }
}

}  // namespace grundy
