#include "grundy/formats/gcsr.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "grundy/core/input_error.hpp"
#include "grundy/formats/degree_runs.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/io/temp_file.hpp"

namespace grundy {
namespace {

// The fixed header (FORMAT.md), little-endian, followed by the section table.
struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t n, m, k;
  std::uint8_t id_bytes;
  std::uint8_t offset_bytes;
  std::uint16_t flags;
  std::uint32_t section_count;
  std::uint64_t file_bytes;
  std::uint64_t checksum;
};
static_assert(sizeof(Header) == 64);

struct Section {
  std::uint32_t kind;
  std::uint32_t flags;
  std::uint64_t offset, bytes, count;
};
static_assert(sizeof(Section) == 32);

enum : std::uint32_t { kOffsets = 1, kTargets = 2, kTokens = 3, kLayers = 4, kOriginalIds = 5, kDegreeRuns = 6 };
constexpr std::uint32_t kSectionRequired = 1;
constexpr std::uint16_t kFlagLayered = 1;
constexpr std::uint32_t kMaxSections = 64;
constexpr std::uint64_t kAlign = 64;

static_assert(std::endian::native == std::endian::little,
              "the .gcsr arrays are used in place: a big-endian build needs a byte-swapping reader");

// FNV-1a over the header (checksum field as zero) and the section table.
std::uint64_t checksum(const char* header, std::size_t bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < bytes; ++i) {
    const bool in_field = i >= offsetof(Header, checksum) && i < offsetof(Header, checksum) + 8;
    h = (h ^ static_cast<unsigned char>(in_field ? 0 : header[i])) * 0x100000001b3ull;
  }
  return h;
}

std::uint64_t align_up(std::uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

const char* section_name(std::uint32_t kind) {
  switch (kind) {
    case kOffsets: return "offsets";
    case kTargets: return "targets";
    case kTokens: return "tokens";
    case kLayers: return "layers";
    case kOriginalIds: return "original ids";
    case kDegreeRuns: return "degree runs";
  }
  return "unknown";
}

// The lowest index at which a parallel check failed (SIZE_MAX: none), so the
// error names the same place whatever the thread count.
class FirstFailure {
 public:
  void offer(std::uint64_t i) { lower_to(first_, i); }
  std::uint64_t get() const { return first_.load(); }
  bool any() const { return get() != UINT64_MAX; }

 private:
  std::atomic<std::uint64_t> first_{UINT64_MAX};
};

// Runs check(i) for i in [0, count) in parallel; returns the first failing
// i. A block of indices is checked in a loop with no exit, which the
// compiler vectorizes, and only a block that fails is searched for its
// first failure.
template <class Check>
std::uint64_t first_failing(const ParallelConfig& pc, std::uint64_t count, const Check& check) {
  constexpr std::size_t kBlock = 4096;
  FirstFailure first;
  for_range(pc, 0, count, [&](std::size_t b, std::size_t e) {
    for (std::size_t at = b; at < e; at += kBlock) {
      const std::size_t end = std::min<std::size_t>(e, at + kBlock);
      unsigned failed = 0;
      for (std::size_t i = at; i < end; ++i) failed |= static_cast<unsigned>(!check(i));
      if (failed == 0) continue;
      for (std::size_t i = at;; ++i)
        if (!check(i)) {
          first.offer(i);
          return;
        }
    }
  });
  return first.get();
}

}  // namespace

bool looks_like_gcsr(std::string_view bytes) {
  return bytes.size() >= sizeof kGcsrMagic && std::memcmp(bytes.data(), kGcsrMagic, sizeof kGcsrMagic) == 0;
}

bool is_gcsr_path(std::string_view path) { return path.ends_with(".gcsr"); }

namespace {

// Reading a .gcsr is four checks in a row, each naming what is wrong and
// where: the header, the section table, the arrays (offsets, targets,
// tokens), and for a layered file its layers, degree runs and original ids.
// `fail` throws "<file>: <what>".
struct Fail {
  const std::string& name;
  [[noreturn]] void operator()(const std::string& what) const { throw InputError(name + ": " + what); }
};

// Where each known section starts, and its entry count.
struct Sections {
  std::uint64_t found[kDegreeRuns + 1] = {};  // byte offsets in the file; 0: absent
  std::uint64_t counts[kDegreeRuns + 1] = {};
};

// `bytes` holds at least the header and section table of a file of `size`
// bytes (all of it, for read_gcsr).
Header check_header(std::string_view bytes, std::uint64_t size, const Fail& fail) {
  if (!looks_like_gcsr(bytes)) fail("not a .gcsr file (bad magic)");
  if (size < sizeof(Header) || bytes.size() < sizeof(Header))
    fail("truncated .gcsr header (" + std::to_string(size) + " bytes)");
  Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.version != kGcsrVersion)
    fail(".gcsr version " + std::to_string(h.version) + " is not supported (this grundy reads version " +
         std::to_string(kGcsrVersion) + ")");
  if (h.section_count > kMaxSections) fail("corrupt header: " + std::to_string(h.section_count) + " sections");
  if (h.header_bytes != sizeof(Header) + h.section_count * sizeof(Section))
    fail("corrupt header: header size " + std::to_string(h.header_bytes) + " does not match " +
         std::to_string(h.section_count) + " sections");
  if (h.header_bytes > size || h.header_bytes > bytes.size())
    fail("truncated .gcsr header (" + std::to_string(size) + " bytes)");
  if (h.file_bytes != size)
    fail("file is " + std::to_string(size) + " bytes but its header says " + std::to_string(h.file_bytes) +
         (size < h.file_bytes ? " (truncated)" : ""));
  if (checksum(bytes.data(), h.header_bytes) != h.checksum) fail("corrupt header: checksum mismatch");
  if (h.id_bytes != sizeof(node_t)) fail("unsupported id width " + std::to_string(h.id_bytes) + " bytes");
  if (h.offset_bytes != sizeof(edge_t)) fail("unsupported offset width " + std::to_string(h.offset_bytes) + " bytes");
  if (h.n > kMaxNodes) fail("N = " + std::to_string(h.n) + " is too large");
  if (h.n == 0 && h.k > 0) fail("K = " + std::to_string(h.k) + " tokens, but the graph has no nodes");
  if ((h.flags & ~kFlagLayered) != 0) fail("unknown flags " + std::to_string(h.flags));

  return h;
}

Sections check_sections(std::string_view bytes, std::uint64_t size, const Header& h, const Fail& fail) {
  const bool layered = h.flags & kFlagLayered;
  Sections t;
  auto& found = t.found;
  auto& counts = t.counts;
  for (std::uint32_t i = 0; i < h.section_count; ++i) {
    Section s;
    std::memcpy(&s, bytes.data() + sizeof(Header) + i * sizeof(Section), sizeof s);
    const std::string what = std::string("section ") + std::to_string(i) + " (" + section_name(s.kind) + ")";
    if (s.kind < kOffsets || s.kind > kDegreeRuns) {
      if (s.flags & kSectionRequired)
        fail(what + ": required section of kind " + std::to_string(s.kind) + " is unknown to this grundy");
      continue;  // an optional section from a newer writer
    }
    if (found[s.kind]) fail(what + ": appears twice");
    if (s.offset % kAlign != 0) fail(what + ": offset " + std::to_string(s.offset) + " is not 64-byte aligned");
    if (s.offset < h.header_bytes || s.offset > size || s.bytes > size - s.offset)
      fail(what + ": bytes " + std::to_string(s.offset) + "+" + std::to_string(s.bytes) + " lie outside the file (" +
           std::to_string(size) + " bytes)");
    const std::uint64_t elem = s.kind == kOffsets ? sizeof(edge_t) : sizeof(node_t);
    if (s.count > s.bytes / elem || s.count * elem != s.bytes)
      fail(what + ": " + std::to_string(s.bytes) + " bytes do not hold " + std::to_string(s.count) + " entries");
    const std::uint64_t want = s.kind == kOffsets       ? h.n + 1
                               : s.kind == kTargets     ? h.m
                               : s.kind == kTokens      ? h.k
                               : s.kind == kOriginalIds ? h.n
                                                        : s.count;
    if (s.count != want) fail(what + ": " + std::to_string(s.count) + " entries, expected " + std::to_string(want));
    if ((s.kind == kLayers || s.kind == kDegreeRuns) && s.count < 1) fail(what + ": empty");
    found[s.kind] = s.offset;
    counts[s.kind] = s.count;
  }
  for (std::uint32_t kind : {kOffsets, kTargets, kTokens})
    if (!found[kind]) fail(std::string("missing ") + section_name(kind) + " section");
  if (layered != (found[kLayers] != 0) || layered != (found[kOriginalIds] != 0))
    fail("layered flag does not match the layers and original ids sections");
  if (found[kDegreeRuns] && !layered) fail("a degree runs section in a file that is not layered");

  return t;
}

void check_arrays(const CsrView& g, std::span<const node_t> tokens, const ParallelConfig& pc, const Fail& fail) {
  const edge_t* const off = g.offsets;
  const node_t* const targets = g.targets;
  const node_t n = g.n;
  const std::uint64_t k = tokens.size();
  // The arrays, in parallel. Offsets first: the other checks index by them.
  if (off[0] != 0) fail("offsets[0] is " + std::to_string(off[0]) + ", not 0");
  if (off[n] != g.m) fail("offsets[N] is " + std::to_string(off[n]) + ", not M = " + std::to_string(g.m));
  if (const auto i = first_failing(pc, n, [&](std::uint64_t u) { return off[u] <= off[u + 1]; }); i != UINT64_MAX)
    fail("offsets decrease at node " + std::to_string(i + 1) + " (" + std::to_string(off[i]) + " > " +
         std::to_string(off[i + 1]) + ")");
  if (const auto e = first_failing(pc, g.m, [&](std::uint64_t i) { return targets[i] < n; }); e != UINT64_MAX)
    fail("edge " + std::to_string(e + 1) + ": target id " + std::to_string(std::uint64_t{targets[e]} + 1) +
         " is out of range 1.." + std::to_string(n));
  if (const auto t = first_failing(pc, k, [&](std::uint64_t i) { return tokens[i] < n; }); t != UINT64_MAX)
    fail("token " + std::to_string(t + 1) + ": node id " + std::to_string(std::uint64_t{tokens[t]} + 1) +
         " is out of range 1.." + std::to_string(n));
}

void check_original_ids(std::span<const node_t> original_ids, const ParallelConfig& pc, const Fail& fail) {
  const node_t* const orig = original_ids.data();
  const std::uint64_t count = original_ids.size();
  const auto n = static_cast<node_t>(count);
  std::vector<std::atomic<std::uint64_t>> seen((count + 63) / 64);
  if (const auto i = first_failing(pc, count,
                                   [&](std::uint64_t u) {
                                     if (orig[u] >= n) return false;
                                     const std::uint64_t bit = std::uint64_t{1} << (orig[u] % 64);
                                     return (seen[orig[u] / 64].fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
                                   });
      i != UINT64_MAX)
    fail("original ids are not a permutation of 1..N (at node " + std::to_string(i + 1) + ")");
}

}  // namespace

GcsrLayout read_gcsr_layout(std::string_view head, std::uint64_t file_bytes, const std::string& name) {
  const Fail fail{name};
  const Header h = check_header(head, file_bytes, fail);
  const Sections t = check_sections(head, file_bytes, h, fail);
  GcsrLayout l;
  l.n = h.n;
  l.m = h.m;
  l.k = h.k;
  l.header_bytes = h.header_bytes;
  l.layered = (h.flags & kFlagLayered) != 0;
  l.offsets_at = t.found[kOffsets];
  l.targets_at = t.found[kTargets];
  l.tokens_at = t.found[kTokens];
  l.layers_at = t.found[kLayers];
  l.layer_count = t.counts[kLayers] > 0 ? t.counts[kLayers] - 1 : 0;
  l.original_ids_at = t.found[kOriginalIds];
  l.degree_runs_at = t.found[kDegreeRuns];
  l.degree_run_count = t.counts[kDegreeRuns] > 0 ? t.counts[kDegreeRuns] - 1 : 0;
  return l;
}

std::uint64_t gcsr_header_bytes(std::string_view first64) {
  if (first64.size() < sizeof(Header)) return sizeof(Header);
  Header h;
  std::memcpy(&h, first64.data(), sizeof h);
  return std::max<std::uint64_t>(
      sizeof(Header), std::min<std::uint64_t>(h.header_bytes, sizeof(Header) + kMaxSections * sizeof(Section)));
}

namespace {

// Layers well formed with every edge of the slice pointing to a later layer
// (which makes the graph a DAG), and degree runs, when present, true to the
// offsets: each run lies in one layer and holds one out-degree (the mex
// pass takes its rows at a fixed stride). One walk over the nodes does both.
// degree_of(u) gives the degree of a node outside the slice.
void check_slice_layers(const CsrSlice& s, std::span<const node_t> layer_begin, std::span<const node_t> degree_runs,
                        const std::function<edge_t(node_t)>& degree_of, const ParallelConfig& pc, const Fail& fail) {
  const edge_t* const off = s.offsets;
  const node_t lo = s.lo, hi = s.hi, n = static_cast<node_t>(s.n);
  const edge_t first = off[0];
  const node_t* const lb = layer_begin.data();
  const std::uint64_t layers = layer_begin.size() - 1;
  if (lb[0] != 0 || lb[layers] != n) fail("layers do not cover nodes 1..N");
  if (const auto l = first_failing(pc, layers, [&](std::uint64_t i) { return lb[i] < lb[i + 1]; }); l != UINT64_MAX)
    fail("layer " + std::to_string(l) + " is empty or out of order");
  // Degree runs covering 0..N in order first, so that the walk below can
  // go through them beside the layers; a run's degree is its first node's,
  // which may lie outside the slice (on another rank).
  const node_t* const rb = degree_runs.empty() ? nullptr : degree_runs.data();
  const std::uint64_t runs = rb ? degree_runs.size() - 1 : 0;
  if (rb) {
    if (rb[0] != 0 || rb[runs] != n) fail("degree runs do not cover nodes 1..N");
    if (const auto r = first_failing(pc, runs, [&](std::uint64_t i) { return rb[i] < rb[i + 1]; }); r != UINT64_MAX)
      fail("degree run " + std::to_string(r) + " is empty or out of order");
  }
  const auto run_of = [&](std::size_t u) {
    return static_cast<std::size_t>(std::upper_bound(rb, rb + runs + 1, u) - rb) - 1;
  };
  const auto degree = [&](node_t u) { return u >= lo && u < hi ? off[u - lo + 1] - off[u - lo] : degree_of(u); };
  FirstFailure bad_node, bad_run;
  for_range(pc, lo, hi, [&](std::size_t b, std::size_t e) {
    std::size_t l = static_cast<std::size_t>(std::upper_bound(lb, lb + layers + 1, b) - lb) - 1;
    std::size_t r = rb ? run_of(b) : 0;
    bool runs_ok = rb != nullptr;
    edge_t run_degree = runs_ok ? degree(rb[r]) : 0;
    for (std::size_t u = b; u < e; ++u) {
      while (u >= lb[l + 1]) ++l;
      if (runs_ok) {
        while (u >= rb[r + 1]) run_degree = degree(rb[++r]);
        if ((u == lb[l] && u != rb[r]) || off[u - lo + 1] - off[u - lo] != run_degree) {
          bad_run.offer(u);
          runs_ok = false;
        }
      }
      for (edge_t i = off[u - lo]; i < off[u - lo + 1]; ++i)
        if (s.targets[i - first] < lb[l + 1]) {
          bad_node.offer(u);
          return;
        }
    }
  });
  if (bad_node.any())
    fail("node " + std::to_string(bad_node.get() + 1) + " has an edge that does not point to a later layer");
  if (bad_run.any()) {
    const std::size_t u = bad_run.get(), start = rb[run_of(u)];
    if (u != start && std::binary_search(lb, lb + layers + 1, u))
      fail("degree runs: node " + std::to_string(u + 1) + " starts a layer inside the run from node " +
           std::to_string(start + 1));
    fail("degree runs: node " + std::to_string(u + 1) + " has out-degree " +
         std::to_string(off[u - lo + 1] - off[u - lo]) + ", but the run it lies in (from node " +
         std::to_string(start + 1) + ") has out-degree " + std::to_string(degree(static_cast<node_t>(start))));
  }
}

}  // namespace

void check_gcsr_slice(const CsrSlice& s, std::span<const node_t> tokens, std::span<const node_t> layer_begin,
                      std::span<const node_t> degree_runs, const std::function<edge_t(node_t)>& degree_of,
                      const ParallelConfig& pc, const std::string& name) {
  const Fail fail{name};
  const edge_t* const off = s.offsets;  // global offsets of nodes lo..hi
  const node_t lo = s.lo, hi = s.hi, n = s.n;
  if (lo == 0 && off[0] != 0) fail("offsets[0] is " + std::to_string(off[0]) + ", not 0");
  if (hi == n && off[hi - lo] != s.m)
    fail("offsets[N] is " + std::to_string(off[hi - lo]) + ", not M = " + std::to_string(s.m));
  if (const auto i = first_failing(pc, hi - lo, [&](std::uint64_t u) { return off[u] <= off[u + 1]; }); i != UINT64_MAX)
    fail("offsets decrease at node " + std::to_string(lo + i + 1) + " (" + std::to_string(off[i]) + " > " +
         std::to_string(off[i + 1]) + ")");
  if (off[hi - lo] > s.m)
    fail("offsets[" + std::to_string(hi) + "] is " + std::to_string(off[hi - lo]) +
         ", past M = " + std::to_string(s.m));
  const edge_t first = off[0], edges = off[hi - lo] - off[0];
  if (const auto e = first_failing(pc, edges, [&](std::uint64_t i) { return s.targets[i] < n; }); e != UINT64_MAX)
    fail("edge " + std::to_string(first + e + 1) + ": target id " + std::to_string(std::uint64_t{s.targets[e]} + 1) +
         " is out of range 1.." + std::to_string(n));
  if (const auto t = first_failing(pc, tokens.size(), [&](std::uint64_t i) { return tokens[i] < n; }); t != UINT64_MAX)
    fail("token " + std::to_string(t + 1) + ": node id " + std::to_string(std::uint64_t{tokens[t]} + 1) +
         " is out of range 1.." + std::to_string(n));
  if (!layer_begin.empty()) check_slice_layers(s, layer_begin, degree_runs, degree_of, pc, fail);
}

GcsrGame read_gcsr(std::string_view bytes, const std::string& name, const ParallelConfig& pc, PhaseTimer* timer) {
  if (timer) timer->start("validate");
  const Fail fail{name};
  const Header h = check_header(bytes, bytes.size(), fail);
  const Sections t = check_sections(bytes, bytes.size(), h, fail);
  const auto at = [&](std::uint32_t kind) {
    return t.found[kind] ? reinterpret_cast<const node_t*>(bytes.data() + t.found[kind]) : nullptr;
  };
  const auto count = [&](std::uint32_t kind) { return static_cast<std::size_t>(t.counts[kind]); };
  GcsrGame g;
  g.game.graph = {static_cast<node_t>(h.n), h.m, reinterpret_cast<const edge_t*>(bytes.data() + t.found[kOffsets]),
                  at(kTargets)};
  g.game.tokens = {at(kTokens), static_cast<std::size_t>(h.k)};
  check_arrays(g.game.graph, g.game.tokens, pc, fail);  // offsets first: the other checks index by them
  if (h.flags & kFlagLayered) {
    g.layers.begin = {at(kLayers), count(kLayers)};
    if (at(kDegreeRuns)) g.layers.degree_runs = {at(kDegreeRuns), count(kDegreeRuns)};
    const CsrView& whole = g.game.graph;
    check_slice_layers({whole.n, whole.m, 0, whole.n, whole.offsets, whole.targets}, g.layers.begin,
                       g.layers.degree_runs, {}, pc, fail);
    g.original_ids = {at(kOriginalIds), static_cast<std::size_t>(h.n)};
    check_original_ids(g.original_ids, pc, fail);
  }
  if (timer) timer->stop();
  return g;
}

// A section's bytes, refused (not wrapped) past what any file can hold.
std::uint64_t section_bytes(std::uint64_t count, std::uint64_t elem, const std::string& path, const char* what) {
  constexpr std::uint64_t kMaxSectionBytes = std::uint64_t{1} << 56;  // 64 PiB: six of them still fit u64
  if (count > kMaxSectionBytes / elem)
    throw InputError(path + ": " + std::to_string(count) + " " + what + " are too many for a .gcsr file");
  return count * elem;
}

GcsrWriter::GcsrWriter(std::string path, node_t n, edge_t m, std::uint64_t k, std::uint64_t layers)
    : path_(std::move(path)), layers_(layers) {
  if (layers > n)
    throw InputError(path_ + ": " + std::to_string(layers) + " layers for " + std::to_string(n) + " nodes");
  std::vector<Section> table = {
      {kOffsets, kSectionRequired, 0, section_bytes(n + std::uint64_t{1}, sizeof(edge_t), path_, "offsets"),
       n + std::uint64_t{1}},
      {kTargets, kSectionRequired, 0, section_bytes(m, sizeof(node_t), path_, "edges"), m},
      {kTokens, kSectionRequired, 0, section_bytes(k, sizeof(node_t), path_, "tokens"), k}};
  if (layers > 0) {
    table.push_back({kLayers, kSectionRequired, 0, (layers + 1) * sizeof(node_t), layers + 1});
    table.push_back({kOriginalIds, kSectionRequired, 0, std::uint64_t{n} * sizeof(node_t), n});
    // Last, and sized at commit(): readers that predate it skip it.
    table.push_back({kDegreeRuns, 0, 0, 0, 0});
  }
  Header h{};
  std::memcpy(h.magic, kGcsrMagic, sizeof h.magic);
  h.version = kGcsrVersion;
  h.section_count = static_cast<std::uint32_t>(table.size());
  h.header_bytes = static_cast<std::uint32_t>(sizeof(Header) + table.size() * sizeof(Section));
  h.n = n;
  h.m = m;
  h.k = k;
  h.id_bytes = sizeof(node_t);
  h.offset_bytes = sizeof(edge_t);
  h.flags = layers > 0 ? kFlagLayered : 0;
  std::uint64_t at = align_up(h.header_bytes);
  for (auto& s : table) {
    s.offset = at;
    at = align_up(at + s.bytes);
  }
  h.file_bytes = at;
  size_ = at;

  if (size_ > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max()))
    throw InputError(path_ + ": a .gcsr file of " + std::to_string(size_) + " bytes is past the file-size limit");
  auto temp = std::make_unique<TempFile>(path_);
  if (temp->writes_through())
    throw InputError(path_ +
                     ": a .gcsr is built in place through a mapping and needs a regular file, "
                     "not a device or pipe");
  // Reserve every block now: a full disk fails here with ENOSPC, instead of
  // as a SIGBUS when a page of the mapping is first written.
  if (const int err = ::posix_fallocate(temp->fd(), 0, static_cast<off_t>(size_)); err != 0)
    throw InputError(path_ + ": cannot reserve " + std::to_string(size_) + " bytes: " + std::strerror(err));
  void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, temp->fd(), 0);
  if (p == MAP_FAILED) throw InputError(path_ + ": cannot map for writing: " + std::strerror(errno));
  base_ = static_cast<char*>(p);
  std::memcpy(base_, &h, sizeof h);
  std::memcpy(base_ + sizeof h, table.data(), table.size() * sizeof(Section));
  offsets_ = reinterpret_cast<edge_t*>(base_ + table[0].offset);
  targets_ = reinterpret_cast<node_t*>(base_ + table[1].offset);
  tokens_ = reinterpret_cast<node_t*>(base_ + table[2].offset);
  if (layers > 0) {
    layer_begin_ = reinterpret_cast<node_t*>(base_ + table[3].offset);
    original_ids_ = reinterpret_cast<node_t*>(base_ + table[4].offset);
  }
  temp_file_ = std::move(temp);
}

GcsrWriter::~GcsrWriter() {
  if (base_ != nullptr) ::munmap(base_, size_);
}

void GcsrWriter::commit() {
  Header h;
  std::memcpy(&h, base_, sizeof h);
  if (layers_ > 0) {
    // The table's last entry: the degree runs, appended past the reserved
    // bytes (their count depends on the offsets just written).
    Section runs;
    char* const table = base_ + sizeof h;
    std::memcpy(&runs, table + (h.section_count - 1) * sizeof(Section), sizeof runs);
    const std::vector<node_t> starts =
        degree_run_starts({static_cast<node_t>(h.n), h.m, offsets_, targets_}, {layer_begin_, layers_ + 1});
    runs.offset = h.file_bytes;  // aligned: every section's end is
    runs.count = starts.size();
    runs.bytes = starts.size() * sizeof(node_t);
    h.file_bytes = align_up(runs.offset + runs.bytes);
    const int fd = temp_file_->fd();
    if (const int err =
            ::posix_fallocate(fd, static_cast<off_t>(runs.offset), static_cast<off_t>(h.file_bytes - runs.offset));
        err != 0)
      throw InputError(path_ + ": cannot reserve " + std::to_string(h.file_bytes) + " bytes: " + std::strerror(err));
    write_at(fd, reinterpret_cast<const char*>(starts.data()), runs.bytes, runs.offset, path_);
    std::memcpy(table + (h.section_count - 1) * sizeof(Section), &runs, sizeof runs);
    std::memcpy(base_, &h, sizeof h);  // the checksum covers file_bytes
  }
  h.checksum = checksum(base_, h.header_bytes);
  std::memcpy(base_, &h, sizeof h);
  if (::msync(base_, size_, MS_SYNC) != 0) throw InputError(path_ + ": write failed: " + std::strerror(errno));
  ::munmap(base_, size_);
  base_ = nullptr;
  temp_file_->commit();
}

void write_gcsr(const std::string& path, const GameView& game, std::span<const node_t> layer_begin,
                std::span<const node_t> original_ids) {
  const CsrView& g = game.graph;
  GcsrWriter w(path, g.n, g.m, game.tokens.size(), layer_begin.empty() ? 0 : layer_begin.size() - 1);
  // copy_n, not memcpy: an empty section (no tokens, no edges) may be a null pointer.
  std::copy_n(g.offsets, std::size_t{g.n} + 1, w.offsets());
  std::copy_n(g.targets, g.m, w.targets());
  std::copy_n(game.tokens.data(), game.tokens.size(), w.tokens());
  if (!layer_begin.empty()) {
    std::copy_n(layer_begin.data(), layer_begin.size(), w.layer_begin());
    std::copy_n(original_ids.data(), original_ids.size(), w.original_ids());
  }
  w.commit();
}

}  // namespace grundy
