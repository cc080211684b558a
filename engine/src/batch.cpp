#include "grundy/batch.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>

#include "grundy/classic_text.hpp"
#include "grundy/cycle.hpp"
#include "grundy/game.hpp"
#include "grundy/gcsr.hpp"
#include "grundy/input_error.hpp"
#include "grundy/instance_stream.hpp"
#include "grundy/layering.hpp"
#include "grundy/level_solver.hpp"
#include "grundy/mapped_file.hpp"
#include "grundy/output_file.hpp"
#include "grundy/solver.hpp"

namespace grundy {
namespace {

// One thread's reusable arrays: after the first few instances, parsing and
// solving allocate nothing.
struct Workspace {
  OwnedGame game;
  Array<node_t> ids;
  Layers layers;
  SgValues sg;
};

struct Item {
  const MappedFile* file = nullptr;  // null: the file could not be opened
  std::string open_error;
  InstanceSpan span;
  bool gcsr = false;
};

InstanceResult named(std::string name) {
  InstanceResult r;
  r.name = std::move(name);
  return r;
}

bool is_instance_file(const std::filesystem::path& p) {
  const auto ext = p.extension().string();
  return ext == ".in" || ext == ".txt" || ext == ".gcsr";
}

void solve_item(const Item& item, InstanceResult& r, Workspace& ws, const BatchOptions& o,
                const ParallelConfig& pc) {
  const auto start = std::chrono::steady_clock::now();
  r.bytes = item.span.end - item.span.begin;
  try {
    if (item.file == nullptr) throw InputError(item.open_error);
    const std::string& path = item.file->name();
    GameView view;
    StoredLayers stored;
    std::span<const node_t> original;
    if (item.gcsr) {
      const GcsrGame f = read_gcsr(item.file->bytes(), path, pc);
      view = f.game;
      stored = f.layers;
      original = f.original_ids;
    } else {
      parse_classic(item.file->bytes().substr(0, item.span.end), {path, pc.threads, nullptr, item.span.begin},
                    ws.game, ws.ids);
      view = ws.game.view();
    }
    const CsrView& g = view.graph;
    r.n = g.n;
    r.m = g.m;
    r.k = view.tokens.size();
    try {
      level_sg(g, pc, ws.layers, ws.sg, nullptr, stored);
    } catch (const CycleError& e) {
      throw InputError(r.name + ": " + e.what());
    }
    r.depth = stored.empty() ? ws.layers.count() : stored.begin.size() - 1;
    r.nim_sum = nim_sum(ws.sg, view.tokens);
    r.status = r.nim_sum != 0 ? InstanceResult::Status::win : InstanceResult::Status::lose;
    const auto user = [&](node_t u) { return std::uint64_t{original.empty() ? u : original[u]} + 1; };
    if (o.move) {
      r.move = "move ";
      if (const auto mv = winning_move(view, ws.sg)) {
        append_number(r.move, mv->token + 1, ' ');
        append_number(r.move, user(mv->from), ' ');
        append_number(r.move, user(mv->to), '\0');
        r.move.pop_back();
      } else {
        r.move += "none";
      }
    }
    if (o.verify) {
      if (const auto bad = verify_sg(g, ws.sg, pc)) {
        r.status = InstanceResult::Status::mismatch;
        r.message = r.name + ": verification failed (" + bad->check + "): node " +
                    std::to_string(user(bad->node)) + " has SG " + std::to_string(bad->got) +
                    ", expected " + std::to_string(bad->want);
      }
    }
  } catch (const InputError& e) {
    r.status = InstanceResult::Status::error;
    r.message = e.what();
  } catch (const std::bad_alloc&) {
    r.status = InstanceResult::Status::error;
    r.message = r.name + ": out of memory";
  }
  r.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

// Solves items[first, last) into results[first, last), in parallel; an
// instance at least big_bytes large gets every thread (the parallel engine,
// nested inside the batch's own parallelism).
void solve_range(const std::vector<Item>& items, std::vector<InstanceResult>& results, std::size_t first,
                 std::size_t last, const BatchOptions& o, tbb::enumerable_thread_specific<Workspace>& workspaces) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first, last, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      const bool big = items[i].span.end - items[i].span.begin >= o.big_bytes;
      solve_item(items[i], results[i], workspaces.local(), o, big ? o.pc : ParallelConfig{1});
    }
  });
}

}  // namespace

std::vector<std::string> expand_batch_inputs(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (p != "-" && std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && is_instance_file(it->path())) found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);
    }
  }
  return files;
}

std::vector<InstanceResult> run_batch(const std::vector<std::string>& files, const BatchOptions& o,
                                      const std::function<void(std::size_t, std::size_t)>& progress) {
  std::vector<std::unique_ptr<MappedFile>> mapped;
  std::vector<Item> items;
  std::vector<InstanceResult> results;
  std::size_t total_bytes = 0, done_bytes = 0;
  for (const auto& path : files) {
    std::error_code ec;
    total_bytes += path == "-" ? 0 : static_cast<std::size_t>(std::filesystem::file_size(path, ec));
  }

  // A pipeline: splitting (serial, in order) runs while earlier instances
  // are solved (in parallel), so a 600 MB stream is never split up front.
  struct Chunk {
    std::vector<Item> items;
    std::vector<InstanceResult> results;
  };
  std::size_t next_file = 0;
  std::optional<InstanceSplitter> splitter;  // the text file being split
  std::optional<InstanceSpan> lookahead;     // its next instance, found early
  const MappedFile* current = nullptr;
  std::size_t index_in_file = 0;
  constexpr std::size_t kChunkItems = 16;
  // The next chunk of instances, or null at the end of the inputs.
  const auto produce = [&]() -> Chunk* {
    auto chunk = std::make_unique<Chunk>();
    const auto add = [&](const Item& item, std::string name) {
      chunk->items.push_back(item);
      chunk->results.push_back(named(std::move(name)));
    };
    while (chunk->items.size() < kChunkItems) {
      if (splitter) {
        const std::optional<InstanceSpan> span = lookahead ? lookahead : splitter->next();
        lookahead = splitter->next();  // a file of one instance is named by its path alone
        if (!span) {
          splitter.reset();
          continue;
        }
        const bool only = index_in_file == 0 && !lookahead;
        add({current, {}, *span, false}, only ? current->name() : current->name() + "#" + std::to_string(index_in_file + 1));
        ++index_in_file;
        if (!lookahead) splitter.reset();
        continue;
      }
      if (next_file == files.size()) break;
      const std::string& path = files[next_file++];
      try {
        mapped.push_back(std::make_unique<MappedFile>(path));
      } catch (const InputError& e) {
        add({nullptr, e.what(), {}, false}, path == "-" ? "<stdin>" : path);
        continue;
      }
      current = mapped.back().get();
      if (looks_like_gcsr(current->bytes())) {
        add({current, {}, {0, current->bytes().size()}, true}, current->name());
        continue;
      }
      splitter.emplace(current->bytes());
      index_in_file = 0;
      lookahead = splitter->next();
      if (!lookahead) {  // nothing but whitespace: an error to report
        splitter.reset();
        add({current, {}, {0, current->bytes().size()}, false}, current->name());
      }
    }
    return chunk->items.empty() ? nullptr : chunk.release();
  };
  tbb::enumerable_thread_specific<Workspace> workspaces;
  const auto solve = [&](Chunk* c) {
    for (std::size_t i = 0; i < c->items.size(); ++i) {
      const bool big = c->items[i].span.end - c->items[i].span.begin >= o.big_bytes;
      solve_item(c->items[i], c->results[i], workspaces.local(), o, big ? o.pc : ParallelConfig{1});
    }
    return c;
  };
  const auto append = [&](Chunk* c) {
    const std::unique_ptr<Chunk> owned(c);
    for (std::size_t i = 0; i < c->items.size(); ++i) {
      done_bytes += c->items[i].span.end - c->items[i].span.begin;
      items.push_back(std::move(c->items[i]));
      results.push_back(std::move(c->results[i]));
    }
    if (progress) progress(done_bytes, total_bytes);
  };
  if (o.pc.threads > 1) {
    tbb::parallel_pipeline(
        o.pc.threads * 4,
        tbb::make_filter<void, Chunk*>(tbb::filter_mode::serial_in_order,
                                       [&](tbb::flow_control& fc) {
                                         Chunk* c = produce();
                                         if (c == nullptr) fc.stop();
                                         return c;
                                       }) &
            tbb::make_filter<Chunk*, Chunk*>(tbb::filter_mode::parallel, solve) &
            tbb::make_filter<Chunk*, void>(tbb::filter_mode::serial_in_order, append));
  } else {
    while (Chunk* c = produce()) append(solve(c));
  }
  // Streams, for the resynchronization below: runs of items of one text file.
  struct Stream {
    const MappedFile* file;
    std::size_t first, last;  // its items
  };
  std::vector<Stream> streams;
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i + 1;
    while (j < items.size() && items[j].file == items[i].file && items[i].file != nullptr && !items[i].gcsr) ++j;
    if (j - i > 1) streams.push_back({items[i].file, i, j});
    i = j;
  }

  // Resynchronize streams where a bad instance threw the count off: two bad
  // instances in a row (instance_stream.hpp says how and when this works).
  // Streams are walked back to front, so that replacing one stream's items
  // leaves the indices of the streams still to visit unchanged.
  using S = InstanceResult::Status;
  for (std::size_t s = streams.size(); s-- > 0;) {
    const MappedFile* file = streams[s].file;
    const std::string_view text = file->bytes();
    std::size_t last = streams[s].last;
    for (std::size_t i = streams[s].first; i + 1 < last; ++i) {
      if (results[i].status != S::error || results[i + 1].status != S::error) continue;
      Workspace probe;
      const auto valid = [&](std::size_t start) {
        const auto spans = split_instances(text, start);
        try {
          parse_classic(text.substr(0, spans.front().end), {file->name(), 1, nullptr, start}, probe.game,
                        probe.ids);
          return true;
        } catch (const InputError&) {
          return false;
        }
      };
      const std::size_t index = i - streams[s].first + 1;  // the bad instance's number
      std::vector<Item> redo;
      std::vector<InstanceResult> redo_results;
      const auto name = [&](std::size_t k) { return file->name() + "#" + std::to_string(index + k); };
      if (const auto at = resync(text, items[i].span.begin, valid)) {
        for (const InstanceSpan& sp : split_instances(text, *at)) {
          redo.push_back({file, {}, sp, false});
          redo_results.push_back(named(name(redo.size())));
        }
        solve_range(redo, redo_results, 0, redo.size(), o, workspaces);
      } else {
        redo.push_back({file, {}, {items[i].span.end, text.size()}, false});
        redo_results.push_back(named(name(1)));
        redo_results.back().message = file->name() + ": no valid instance found after bad instance #" +
                                      std::to_string(index) + "; the rest of the stream is skipped";
      }
      const auto cut = static_cast<std::ptrdiff_t>(i + 1);
      items.erase(items.begin() + cut, items.begin() + static_cast<std::ptrdiff_t>(last));
      results.erase(results.begin() + cut, results.begin() + static_cast<std::ptrdiff_t>(last));
      items.insert(items.begin() + cut, redo.begin(), redo.end());
      results.insert(results.begin() + cut, redo_results.begin(), redo_results.end());
      last = i + 1 + redo.size();
    }
  }
  return results;
}

}  // namespace grundy
