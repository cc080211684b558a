#include "grundy/dist/answer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "grundy/core/input_error.hpp"
#include "grundy/dist/comm.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/io/temp_file.hpp"
#include "grundy/solve/mex.hpp"

namespace grundy::dist {
namespace {

node_t global_of(const GraphSlice& s, const DistValues& sg, node_t slot) {
  return slot < sg.own ? s.lo + slot : sg.ghosts.id(slot - sg.own);
}

bool owns(const GraphSlice& s, node_t v) { return v >= s.lo && v < s.hi; }

// Values by the user's ids: the slice's own when the ids are the same, else
// each (user id, value) sent to the rank owning that user id.
std::vector<sg_t> by_user_ids(const GraphSlice& s, const DistValues& sg) {
  if (s.original_ids.empty()) return {sg.values.begin(), sg.values.begin() + sg.own};
  const World& w = world();
  std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(w.size));
  for (node_t u = 0; u < sg.own; ++u) {
    auto& to = out[static_cast<std::size_t>(s.part.owner(s.original_ids[u]))];
    to.push_back(s.original_ids[u]);
    to.push_back(sg.values[u]);
  }
  const std::vector<std::uint32_t> in = trade(out);
  std::vector<sg_t> values(sg.own);
  for (std::size_t i = 0; i < in.size(); i += 2) values[in[i] - s.lo] = in[i + 1];
  return values;
}

}  // namespace

sg_t nim_sum_across_ranks(const GraphSlice& s, const DistValues& sg) {
  std::uint64_t x = 0;
  for (const node_t t : s.tokens)
    if (owns(s, t)) x ^= sg.values[t - s.lo];
  xor_all(std::span(&x, 1));
  return static_cast<sg_t>(x);
}

std::optional<UserMove> move_across_ranks(const GraphSlice& s, const DistValues& sg, sg_t total) {
  if (total == 0) return std::nullopt;
  std::uint64_t first = UINT64_MAX;
  for (std::size_t i = 0; i < s.tokens.size() && first == UINT64_MAX; ++i) {
    const node_t from = s.tokens[i];
    if (owns(s, from) && (sg.values[from - s.lo] ^ total) < sg.values[from - s.lo]) first = i;
  }
  first = min_all(first);
  if (first == UINT64_MAX) return std::nullopt;  // unreachable when the values are right
  const node_t from = s.tokens[first];
  // The owner finds the edge; the target's owner names it as the user does.
  std::uint64_t to = UINT64_MAX, from_user = 0;
  if (owns(s, from)) {
    const node_t u = from - s.lo;
    const sg_t want = sg.values[u] ^ total;
    for (edge_t i = s.offsets[u]; i < s.offsets[u + 1] && to == UINT64_MAX; ++i)
      if (sg.values[s.targets[i]] == want) to = global_of(s, sg, s.targets[i]);
    from_user = s.user_id(from);
  }
  std::uint64_t facts[2] = {owns(s, from) ? to : 0, owns(s, from) ? from_user : 0};
  sum_all(facts);
  if (facts[0] == UINT64_MAX) return std::nullopt;
  const auto to_node = static_cast<node_t>(facts[0]);
  std::uint64_t to_user = owns(s, to_node) ? s.user_id(to_node) : 0;
  to_user = sum_all(to_user);
  return UserMove{first + 1, facts[1] + 1, to_user + 1};
}

std::optional<DistMismatch> verify_across_ranks(const GraphSlice& s, const DistValues& sg, const ParallelConfig& pc) {
  StampMex exemplar(max_degree(CsrView{sg.own, s.edges, s.offsets.data(), s.targets}));
  PerThread<StampMex> mexes(exemplar);
  std::atomic<std::uint64_t> first{UINT64_MAX};
  for_range(pc, 0, sg.own, [&](std::size_t b, std::size_t e) {
    StampMex& mex = mexes.local();
    for (std::size_t u = b; u < e; ++u) {
      const sg_t want =
          mex(std::span<const node_t>(s.targets + s.offsets[u], s.offsets[u + 1] - s.offsets[u]), sg.values.data());
      if (want != sg.values[u]) {
        lower_to(first, u);
        return;
      }
    }
  });
  const std::uint64_t mine = first.load();
  const std::uint64_t bad = min_all(mine == UINT64_MAX ? UINT64_MAX : s.lo + mine);
  if (bad == UINT64_MAX) return std::nullopt;
  std::uint64_t facts[3] = {0, 0, 0};  // got, want, user id: from the owner
  if (owns(s, static_cast<node_t>(bad))) {
    const node_t u = static_cast<node_t>(bad) - s.lo;
    StampMex mex = exemplar;
    facts[0] = sg.values[u];
    facts[1] =
        mex(std::span<const node_t>(s.targets + s.offsets[u], s.offsets[u + 1] - s.offsets[u]), sg.values.data());
    facts[2] = s.user_id(static_cast<node_t>(bad));
  }
  sum_all(facts);
  return DistMismatch{{static_cast<node_t>(bad), static_cast<sg_t>(facts[0]), static_cast<sg_t>(facts[1]), "mex rule"},
                      facts[2] + 1};
}

namespace {

// One rank's part of the --sg-out file: its values (by the user's ids) in
// the format asked, sized first, then made a block at a time.
struct SgPart {
  std::span<const sg_t> values;
  SgFileFormat format;
  unsigned width;      // bytes a value, binary formats
  std::string header;  // the .npy header, on rank 0
  node_t first_id;     // the user id (0-based) of values[0]

  std::uint64_t bytes() const {
    if (format != SgFileFormat::text) return header.size() + values.size() * std::uint64_t{width};
    std::uint64_t total = 0;
    for (const sg_t v : values) {
      total += 2;  // the first digit and the line end
      for (sg_t x = v; x >= 10; x /= 10) ++total;
    }
    return total;
  }
  void check() const {
    if (format == SgFileFormat::text || width != 2) return;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] > 0xffff)
        throw InputError("--sg-format u16: node " + std::to_string(first_id + i + 1) + " has SG " +
                         std::to_string(values[i]) + ", past 65535; write u32 or npy");
  }
  // Values [from, to) as bytes (the header before the first).
  std::string block(std::size_t from, std::size_t to) const {
    std::string out = from == 0 ? header : std::string();
    for (std::size_t i = from; i < to; ++i) {
      if (format == SgFileFormat::text) {
        append_number(out, values[i]);
      } else {
        out.append(reinterpret_cast<const char*>(&values[i]), width);  // little-endian: the low bytes first
      }
    }
    return out;
  }
};

constexpr std::size_t kBlockValues = std::size_t{1} << 18;

}  // namespace

std::string write_sg_across_ranks(const std::string& path, SgFileFormat format, const GraphSlice& s,
                                  const DistValues& sg, const std::function<void()>& before_writing) {
  const World& w = world();
  std::vector<sg_t> routed;
  if (!s.original_ids.empty()) routed = by_user_ids(s, sg);
  const unsigned width = format == SgFileFormat::u16   ? 2
                         : format == SgFileFormat::u32 ? 4
                         : SgValues::fits_narrow(s.m)  ? 2
                                                       : 4;
  const SgPart part{routed.empty() ? std::span<const sg_t>(sg.values.data(), sg.own) : std::span<const sg_t>(routed),
                    format, width, w.leads() && format == SgFileFormat::npy ? npy_header(s.n, width) : std::string(),
                    s.lo};
  together([&] { part.check(); });
  // Where each rank's part goes.
  const std::vector<std::uint64_t> sizes = gather_all(part.bytes());
  std::uint64_t at = 0;
  for (int r = 0; r < w.rank; ++r) at += sizes[static_cast<std::size_t>(r)];
  // A regular file (or a new one) is written by position; anything else
  // through rank 0.
  std::uint64_t regular = 0;
  std::unique_ptr<TempFile> temp;
  together([&] {
    if (!w.leads() || names_stdout(path)) return;
    temp = std::make_unique<TempFile>(path, true);
    regular = !temp->writes_through() && !temp->temp_path().empty();
  });
  regular = max_all(regular);
  if (before_writing) before_writing();
  if (!regular) {  // stdout, a device or a FIFO: rank 0 writes it all, in order
    const std::vector<char> all = gather_bytes(part.block(0, part.values.size()), 0);
    std::string for_stdout;
    together([&] {
      if (!w.leads()) return;
      if (names_stdout(path)) {
        for_stdout.assign(all.begin(), all.end());
        return;
      }
      for (std::size_t done = 0; done < all.size();) {
        const ssize_t n = ::write(temp->fd(), all.data() + done, all.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw InputError(path + ": write failed: " + std::strerror(n < 0 ? errno : EIO));
        done += static_cast<std::size_t>(n);
      }
      temp->commit();
    });
    return for_stdout;
  }
  const std::string temp_path = broadcast(w.leads() ? temp->temp_path() : std::string());
  together([&] {
    const int fd = w.leads() ? temp->fd() : ::open(temp_path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
      throw InputError(path + ": rank " + std::to_string(w.rank) + " cannot open " + temp_path + ": " +
                       std::strerror(errno));
    try {
      for (std::size_t from = 0; from < part.values.size() || (from == 0 && !part.header.empty());
           from += kBlockValues) {
        const std::string bytes = part.block(from, std::min(part.values.size(), from + kBlockValues));
        write_at(fd, bytes.data(), bytes.size(), at, path);
        at += bytes.size();
        if (part.values.empty()) break;
      }
    } catch (...) {
      if (!w.leads()) ::close(fd);
      throw;
    }
    if (!w.leads() && ::close(fd) != 0) throw InputError(path + ": write failed: " + std::strerror(errno));
  });
  together([&] {
    if (w.leads()) temp->commit();
  });
  return {};
}

void plant_error(const GraphSlice& s, DistValues& sg, std::int64_t node) {
  if (node < 0 || static_cast<std::uint64_t>(node) >= s.n) return;
  const auto v = static_cast<node_t>(node);
  if (owns(s, v)) sg.values[v - s.lo] ^= 1;
}

}  // namespace grundy::dist
