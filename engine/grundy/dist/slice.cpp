#include "grundy/dist/slice.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "grundy/core/input_error.hpp"
#include "grundy/dist/comm.hpp"
#include "grundy/dist/wire.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/io/mapped_file.hpp"

namespace grundy::dist {

int Partition::owner(node_t v) const {
  return static_cast<int>(std::upper_bound(begin.begin(), begin.end(), v) - begin.begin()) - 1;
}

std::vector<std::uint64_t> balanced_cuts(std::uint64_t count, int parts,
                                         const std::function<std::uint64_t(std::uint64_t)>& work) {
  std::vector<std::uint64_t> cuts(static_cast<std::size_t>(parts) + 1, 0);
  cuts.back() = count;
  const std::uint64_t total = work(count);
  for (int r = 1; r < parts; ++r) {
    const auto want = static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * r / parts);
    std::uint64_t a = cuts[static_cast<std::size_t>(r) - 1], b = count;  // the first cut whose work reaches want
    while (a < b) {
      const std::uint64_t mid = a + (b - a) / 2;
      if (work(mid) < want) {
        a = mid + 1;
      } else {
        b = mid;
      }
    }
    cuts[static_cast<std::size_t>(r)] = a;
  }
  return cuts;
}

namespace {

Partition partition_of(const std::vector<std::uint64_t>& cuts) {
  Partition p;
  for (const std::uint64_t c : cuts) p.begin.push_back(static_cast<node_t>(c));
  return p;
}

// A file read by position, naming the file in every error.
struct PositionedFile {
  std::string name;
  int fd = -1;
  std::uint64_t size = 0;

  explicit PositionedFile(const std::string& path) : name(path) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
      throw InputError(path + ": not a regular file (grundy-mpi maps a .gcsr's slices; pipe other inputs)");
    size = static_cast<std::uint64_t>(st.st_size);
  }
  ~PositionedFile() {
    if (fd >= 0) ::close(fd);
  }
  void read(void* into, std::uint64_t bytes, std::uint64_t at) const {
    auto* p = static_cast<char*>(into);
    for (std::uint64_t done = 0; done < bytes;) {
      const ssize_t got = ::pread(fd, p + done, bytes - done, static_cast<off_t>(at + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw InputError(name + ": read failed at byte " + std::to_string(at + done));
      done += static_cast<std::uint64_t>(got);
    }
  }
};

// Bytes [from, to) of the file, mapped private and writable (the solve
// relabels the targets in place; the file is never written).
std::shared_ptr<void> map_private(const PositionedFile& f, std::uint64_t from, std::uint64_t to, char** at) {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t start = from / page * page;
  const std::size_t length = static_cast<std::size_t>(to - start);
  if (to == from) {
    *at = nullptr;
    return {};
  }
  void* p = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE, f.fd, static_cast<off_t>(start));
  if (p == MAP_FAILED)
    throw InputError(f.name + ": cannot map bytes " + std::to_string(from) + ".." + std::to_string(to) +
                     " of this rank's slice: " + std::strerror(errno));
  *at = static_cast<char*>(p) + (from - start);
  return {p, [length](void* q) { ::munmap(q, length); }};
}

// A layered file's original ids must be a permutation: each id goes to the
// rank that owns that value, which counts what it gets.
void check_permutation(const GraphSlice& s) {
  const World& w = world();
  std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(w.size));
  for (node_t u = s.lo; u < s.hi; ++u) {
    const node_t id = s.original_ids[u - s.lo];
    if (id >= s.n)
      throw InputError(s.name + ": original ids are not a permutation of 1..N (at node " + std::to_string(u + 1) + ")");
    auto& to = out[static_cast<std::size_t>(s.part.owner(id))];
    to.push_back(id);
    to.push_back(u);
  }
  const std::vector<std::uint32_t> in = trade(out);
  std::vector<node_t> first(s.nodes(), UINT32_MAX);
  std::uint64_t bad = UINT64_MAX;
  for (std::size_t i = 0; i < in.size(); i += 2) {
    node_t& seen = first[in[i] - s.lo];
    if (seen == UINT32_MAX) {
      seen = in[i + 1];
    } else {
      bad = std::min<std::uint64_t>(bad, std::max(seen, in[i + 1]));
    }
  }
  bad = min_all(bad);
  if (bad != UINT64_MAX)
    throw InputError(s.name + ": original ids are not a permutation of 1..N (at node " + std::to_string(bad + 1) + ")");
}

// An array's bytes from a message (memcpy wants a real pointer, even for none).
void copy_bytes(void* to, const std::string& from) {
  if (!from.empty()) std::memcpy(to, from.data(), from.size());
}

}  // namespace

GraphSlice map_gcsr_slice(const std::string& path, const ParallelConfig& pc) {
  const World& w = world();
  GraphSlice s;
  s.name = path;
  std::unique_ptr<PositionedFile> file;
  GcsrLayout layout;
  together([&] {
    file = std::make_unique<PositionedFile>(path);
    std::string head(std::min<std::uint64_t>(file->size, 64), '\0');
    file->read(head.data(), head.size(), 0);
    head.resize(std::min<std::uint64_t>(file->size, gcsr_header_bytes(head)));
    file->read(head.data(), head.size(), 0);
    layout = read_gcsr_layout(head, file->size, path);
  });
  s.n = layout.n;
  s.m = layout.m;
  const auto offset_at = [&](std::uint64_t i) {
    edge_t v = 0;
    file->read(&v, sizeof v, layout.offsets_at + i * sizeof(edge_t));
    return std::min<edge_t>(v, s.m);
  };
  together([&] {
    s.part = partition_of(balanced_cuts(s.n, w.size, [&](std::uint64_t i) { return i + offset_at(i); }));
    s.lo = s.part.begin[static_cast<std::size_t>(w.rank)];
    s.hi = s.part.begin[static_cast<std::size_t>(w.rank) + 1];
    s.offsets = Array<edge_t>(s.nodes() + std::size_t{1});
    file->read(s.offsets.data(), s.offsets.size() * sizeof(edge_t),
               layout.offsets_at + std::uint64_t{s.lo} * sizeof(edge_t));
    s.tokens.resize(layout.k);
    file->read(s.tokens.data(), layout.k * sizeof(node_t), layout.tokens_at);
    std::vector<node_t> layers, runs;
    if (layout.degree_runs_at != 0) {
      runs.resize(layout.degree_run_count + 1);
      file->read(runs.data(), runs.size() * sizeof(node_t), layout.degree_runs_at);
    }
    if (layout.layered) {
      layers.resize(layout.layer_count + 1);
      file->read(layers.data(), layers.size() * sizeof(node_t), layout.layers_at);
      s.original_ids = Array<node_t>(s.nodes());
      file->read(s.original_ids.data(), s.nodes() * sizeof(node_t),
                 layout.original_ids_at + std::uint64_t{s.lo} * sizeof(node_t));
    }
    // Mapped over exactly the range the offsets name, once they are sane
    // (the check reads no target before it has checked the offsets).
    const std::uint64_t from = std::min<std::uint64_t>(s.offsets[0], s.m);
    const std::uint64_t to = std::clamp<std::uint64_t>(s.offsets[s.nodes()], from, s.m);
    char* at = nullptr;
    s.keep =
        map_private(*file, layout.targets_at + from * sizeof(node_t), layout.targets_at + to * sizeof(node_t), &at);
    s.targets = reinterpret_cast<node_t*>(at);
    const auto degree_of = [&](node_t u) {  // a node of another rank's slice: two reads
      edge_t pair[2];
      file->read(pair, sizeof pair, layout.offsets_at + std::uint64_t{u} * sizeof(edge_t));
      return pair[1] - pair[0];
    };
    check_gcsr_slice({s.n, s.m, s.lo, s.hi, s.offsets.data(), s.targets}, s.tokens, layers, runs, degree_of, pc, path);
    s.edge_base = s.offsets[0];
    s.edges = s.offsets[s.nodes()] - s.offsets[0];
    for (edge_t& o : s.offsets) o -= s.edge_base;
  });
  if (layout.layered) together([&] { check_permutation(s); });
  return s;
}

GraphSlice generate_slice(const GenSpec& spec, const std::string& name, const ParallelConfig& pc) {
  const World& w = world();
  GraphSlice s;
  s.name = name;
  together([&] { check_spec(spec); });
  s.n = spec.nodes;
  s.m = generated_edges(spec);
  // Each rank sums the degrees of its share of blocks; the cuts fall on
  // block boundaries, balanced on nodes + edges.
  const std::uint64_t p = static_cast<std::uint64_t>(w.size);
  const std::uint64_t blocks = std::min<std::uint64_t>(std::max<std::uint64_t>(s.n, 1), 1024 * p);
  const std::uint64_t block = (std::max<std::uint64_t>(s.n, 1) + blocks - 1) / blocks;
  const std::uint64_t all_blocks = (s.n + block - 1) / block;
  const auto share = [&](std::uint64_t r) { return all_blocks * r / p; };
  const std::uint64_t mine_from = share(static_cast<std::uint64_t>(w.rank)),
                      mine_to = share(static_cast<std::uint64_t>(w.rank) + 1);
  const std::vector<edge_t> mine =
      block_degrees(spec, std::min(s.n, mine_from * block), std::min(s.n, mine_to * block), block, pc);
  std::vector<std::uint32_t> packed;
  for (const edge_t d : mine) {
    packed.push_back(static_cast<std::uint32_t>(d));
    packed.push_back(static_cast<std::uint32_t>(d >> 32));
  }
  const std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(w.size), packed);
  const std::vector<std::uint32_t> in = trade(out);
  std::vector<edge_t> before(all_blocks + 1, 0);
  for (std::uint64_t b = 0; b < all_blocks; ++b)
    before[b + 1] = before[b] + (std::uint64_t{in[2 * b]} | (std::uint64_t{in[2 * b + 1]} << 32));
  const std::vector<std::uint64_t> cuts =
      balanced_cuts(all_blocks, w.size, [&](std::uint64_t b) { return std::min(s.n, b * block) + before[b]; });
  for (const std::uint64_t c : cuts) s.part.begin.push_back(static_cast<node_t>(std::min(s.n, c * block)));
  s.lo = s.part.begin[static_cast<std::size_t>(w.rank)];
  s.hi = s.part.begin[static_cast<std::size_t>(w.rank) + 1];
  s.edge_base = before[cuts[static_cast<std::size_t>(w.rank)]];
  together([&] {
    s.offsets = Array<edge_t>(s.nodes() + std::size_t{1});
    auto targets = std::make_shared<Array<node_t>>();
    generate_rows(spec, s.lo, s.hi, s.offsets.data(), *targets, s.tokens, pc);
    s.edges = targets->size();
    s.targets = targets->data();
    s.keep = targets;
  });
  return s;
}

GraphSlice deal_loaded_game(const std::string& input, const ParallelConfig& pc) {
  const World& w = world();
  enum { kSlice = 21 };
  GraphSlice s;
  std::unique_ptr<MappedFile> in;
  std::unique_ptr<LoadedGame> game;
  together([&] {
    if (!w.leads()) return;
    in = std::make_unique<MappedFile>(input);
    game = std::make_unique<LoadedGame>(load_game(in->bytes(), in->name(), pc));
  });
  // Rank 0 cuts and deals: the header facts to all, each rank its rows.
  WireWriter facts;
  if (w.leads()) {
    const CsrView& g = game->view.graph;
    facts.text(in->name());
    facts.u64(g.n);
    facts.u64(g.m);
    for (const std::uint64_t c : balanced_cuts(g.n, w.size, [&](std::uint64_t i) { return i + g.offsets[i]; }))
      facts.u64(c);
  }
  const std::string shared = broadcast(std::move(facts.bytes()));
  WireReader fr(shared);
  s.name = fr.text();
  s.n = fr.u64();
  s.m = fr.u64();
  std::vector<std::uint64_t> cuts(static_cast<std::size_t>(w.size) + 1);
  for (auto& c : cuts) c = fr.u64();
  s.part = partition_of(cuts);
  s.lo = s.part.begin[static_cast<std::size_t>(w.rank)];
  s.hi = s.part.begin[static_cast<std::size_t>(w.rank) + 1];
  const auto rows_for = [&](int r) {
    const CsrView& g = game->view.graph;
    const node_t lo = s.part.begin[static_cast<std::size_t>(r)], hi = s.part.begin[static_cast<std::size_t>(r) + 1];
    WireWriter m;
    m.u64(g.offsets[lo]);
    m.text({reinterpret_cast<const char*>(g.offsets + lo), (hi - lo + std::size_t{1}) * sizeof(edge_t)});
    m.text(
        {reinterpret_cast<const char*>(g.targets + g.offsets[lo]), (g.offsets[hi] - g.offsets[lo]) * sizeof(node_t)});
    m.text({reinterpret_cast<const char*>(game->view.tokens.data()), game->view.tokens.size() * sizeof(node_t)});
    const auto orig = game->original_ids;
    m.text(orig.empty()
               ? std::string_view{}
               : std::string_view{reinterpret_cast<const char*>(orig.data() + lo), (hi - lo) * sizeof(node_t)});
    return std::move(m.bytes());
  };
  std::string mine;
  if (w.leads()) {
    for (int r = 1; r < w.size; ++r) send_bytes(rows_for(r), r, kSlice);
    mine = rows_for(0);
  } else {
    mine = receive_bytes(0, kSlice);
  }
  WireReader r(mine);
  s.edge_base = r.u64();
  const std::string offsets = r.text(), targets_bytes = r.text(), tokens = r.text(), orig = r.text();
  s.offsets = Array<edge_t>(s.nodes() + std::size_t{1});
  copy_bytes(s.offsets.data(), offsets);
  for (edge_t& o : s.offsets) o -= s.edge_base;
  auto targets = std::make_shared<Array<node_t>>(targets_bytes.size() / sizeof(node_t));
  copy_bytes(targets->data(), targets_bytes);
  s.edges = targets->size();
  s.targets = targets->data();
  s.keep = targets;
  s.tokens.resize(tokens.size() / sizeof(node_t));
  copy_bytes(s.tokens.data(), tokens);
  if (!orig.empty()) {
    s.original_ids = Array<node_t>(s.nodes());
    copy_bytes(s.original_ids.data(), orig);
  }
  return s;
}

}  // namespace grundy::dist
