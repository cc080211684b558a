#include "grundy/dist/batch.hpp"

#include <map>
#include <memory>

#include "grundy/core/input_error.hpp"
#include "grundy/dist/comm.hpp"
#include "grundy/dist/wire.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/jobs/batch_items.hpp"
#include "grundy/primitives/parallel.hpp"

namespace grundy::dist {
namespace {

enum Tag : int { kChunk = 11, kResults = 12 };
constexpr std::uint64_t kStop = UINT64_MAX;  // a chunk id: no more work

// An item as it travels: what to read (a path and span on the shared file
// system, or the bytes themselves for a stream) and its result's name.
void write_item(WireWriter& w, const Item& item, const InstanceResult& where) {
  w.text(where.name);
  w.text(where.path);
  w.u64(where.index);
  w.text(item.open_error);
  w.text(item.note);
  w.u64(item.line);
  w.text(item.framing_error);
  if (item.file == nullptr) {
    w.u64(0);
    return;
  }
  const std::string_view bytes = item.file->bytes;
  if (item.file->name != "<stdin>") {
    w.u64(1);
    w.text(item.file->name);
    w.u64(item.span.begin);
    w.u64(item.span.end);
    return;
  }
  // A stream's instance, from the start of its first line (so that an
  // error's column is the same as in one process).
  std::size_t from = item.span.begin;
  while (from > 0 && bytes[from - 1] != '\n') --from;
  w.u64(2);
  w.u64(item.span.begin - from);
  w.text(bytes.substr(from, item.span.end - from));
}

// The worker's side: the file last mapped stays mapped for the next item.
struct ItemReader {
  std::shared_ptr<const Source> last_file;

  void read(WireReader& r, Item& item, InstanceResult& where) {
    where.name = r.text();
    where.path = r.text();
    where.index = r.u64();
    item.open_error = r.text();
    item.note = r.text();
    item.line = r.u64();
    where.line = item.line;
    item.framing_error = r.text();
    const std::uint64_t kind = r.u64();
    if (kind == 1) {
      const std::string path = r.text();
      item.span.begin = r.u64();
      item.span.end = r.u64();
      if (!last_file || last_file->name != path) {
        last_file.reset();
        try {
          auto mapped = std::make_shared<const MappedFile>(path);
          last_file = std::make_shared<const Source>(Source{mapped->name(), mapped->bytes(), mapped});
        } catch (const InputError& e) {
          item.open_error = e.what();
          return;
        }
      }
      item.file = last_file;
    } else if (kind == 2) {
      const std::uint64_t start = r.u64();
      auto bytes = std::make_shared<const std::string>(r.text());
      item.span = {static_cast<std::size_t>(start), bytes->size()};
      item.file = std::make_shared<const Source>(Source{"<stdin>", *bytes, bytes});
    }
  }
};

void write_result(WireWriter& w, const InstanceResult& r) {
  w.text(r.name);
  w.text(r.path);
  w.u64(r.index);
  w.u64(r.line);
  w.u64(static_cast<std::uint64_t>(r.status));
  w.text(r.message);
  w.u64(r.parsed);
  w.u64(r.solved);
  w.u64(r.move.has_value());
  if (r.move) {
    w.u64(r.move->token);
    w.u64(r.move->from);
    w.u64(r.move->to);
  }
  for (const std::uint64_t v : {std::uint64_t{r.nim_sum}, r.n, r.m, r.k, r.depth, r.bytes}) w.u64(v);
  w.f64(r.microseconds);
  w.u64(r.verified);
}

void read_result(WireReader& w, InstanceResult& r) {
  r.name = w.text();
  r.path = w.text();
  r.index = w.u64();
  r.line = w.u64();
  r.status = static_cast<InstanceResult::Status>(w.u64());
  r.message = w.text();
  r.parsed = w.u64() != 0;
  r.solved = w.u64() != 0;
  if (w.u64() != 0) {
    UserMove m;
    m.token = w.u64();
    m.from = w.u64();
    m.to = w.u64();
    r.move = m;
  }
  r.nim_sum = static_cast<sg_t>(w.u64());
  r.n = w.u64();
  r.m = w.u64();
  r.k = w.u64();
  r.depth = w.u64();
  r.bytes = w.u64();
  r.microseconds = w.f64();
  r.verified = w.u64() != 0;
}

// Ranks 1..P-1: solve each chunk dealt, with every thread, and send back
// its results, until the dealer says stop.
void solve_dealt_chunks(const BatchOptions& o) {
  PerThread<Workspace> workspaces;
  ItemReader reader;
  while (true) {
    const std::string message = receive_bytes(0, kChunk);
    WireReader in(message);
    const std::uint64_t id = in.u64();
    if (id == kStop) return;
    std::vector<Item> items(in.u64());
    std::vector<InstanceResult> results(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) reader.read(in, items[i], results[i]);
    // Small instances one per thread; a big one with all of them.
    for_tasks(o.pc, items.size(), [&](std::size_t i) {
      const bool big = items[i].span.end - items[i].span.begin >= o.big_bytes;
      solve_item(items[i], results[i], workspaces.local(), o, big ? o.pc : ParallelConfig{1});
    });
    WireWriter out;
    out.u64(id);
    out.u64(results.size());
    for (const auto& r : results) write_result(out, r);
    send_bytes(out.bytes(), 0, kResults);
  }
}

}  // namespace

BatchCounts run_batch_across_ranks(const std::vector<BatchInput>& inputs, const BatchOptions& o,
                                   const std::function<void(const InstanceResult&)>& sink,
                                   const std::function<void(const BatchCounts&, std::uint64_t)>& progress) {
  const World& w = world();
  if (w.size == 1) return run_batch(inputs, o, sink, progress);
  if (!w.leads()) {
    solve_dealt_chunks(o);
    return {};
  }
  const std::uint64_t total_bytes = total_input_bytes(inputs);
  ItemProducer producer(inputs, o.stream_window);
  // A chunk: a few items per worker thread, or one big instance's worth of
  // bytes, whichever comes first.
  const std::size_t chunk_items = 4 * std::size_t{o.pc.threads};
  bool exhausted = false;
  std::uint64_t next_chunk = 0, next_emit = 0;
  std::map<std::uint64_t, std::vector<InstanceResult>> waiting;  // by chunk id
  std::uint64_t in_flight = 0;
  std::map<std::uint64_t, std::uint64_t> chunk_bytes;
  Postbox postbox;
  const auto deal = [&](int to) {
    if (exhausted) return;
    WireWriter out;
    std::vector<std::pair<Item, InstanceResult>> items;
    std::uint64_t bytes = 0;
    Item item;
    InstanceResult where;
    while (items.size() < chunk_items && bytes < o.big_bytes && producer.next(item, where)) {
      where.line = item.line;
      bytes += item.span.end - item.span.begin;
      items.emplace_back(std::move(item), std::move(where));
      item = {};
      where = {};
    }
    if (items.empty()) {
      exhausted = true;
      for (int r = 1; r < w.size; ++r) {
        WireWriter stop;
        stop.u64(kStop);
        postbox.post(std::move(stop.bytes()), r, kChunk);
      }
      return;
    }
    out.u64(next_chunk);
    out.u64(items.size());
    for (const auto& [it, place] : items) write_item(out, it, place);
    chunk_bytes[next_chunk] = bytes;
    ++next_chunk;
    postbox.post(std::move(out.bytes()), to, kChunk);
    ++in_flight;
  };
  for (int round = 0; round < 2; ++round)
    for (int r = 1; r < w.size; ++r) deal(r);
  BatchCounts counts;
  while (in_flight > 0) {
    int from = 0;
    const std::string message = receive_bytes(-1, kResults, &from);
    WireReader in(message);
    const std::uint64_t id = in.u64();
    std::vector<InstanceResult>& results = waiting[id];
    results.resize(in.u64());
    for (auto& r : results) read_result(in, r);
    --in_flight;
    deal(from);
    bool emitted = false;
    for (auto it = waiting.find(next_emit); it != waiting.end(); it = waiting.find(next_emit)) {
      for (auto& r : it->second) {
        counts.add(r);
        sink(r);
      }
      counts.bytes_done += chunk_bytes[next_emit];
      chunk_bytes.erase(next_emit);
      waiting.erase(it);
      ++next_emit;
      emitted = true;
    }
    if (emitted && progress) progress(counts, total_bytes);
  }
  return counts;
}

}  // namespace grundy::dist
