// The second yardstick for whole-process comparisons: a tight serial
// solution, as a performance-minded entrant would write it. All of stdin
// mapped (or read) at once, numbers parsed by hand, the edges counted into CSR arrays,
// Kahn's order by a queue, and each mex over a stamped array. One thread,
// no streams, no vector of vectors. Not part of grundy: results/ times
// grundy against it (and against cin_solver.cpp, the plain one).
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

namespace {

// stdin mapped when it is a file, else read whole; either way ended by a
// '\0' sentinel, where parsing stops.
std::string_view stdin_text(std::vector<char>& buf) {
  struct stat st {};
  // A file whose last page has room for the sentinel: the bytes past its
  // end read as zeros.
  if (::fstat(0, &st) == 0 && S_ISREG(st.st_mode) && st.st_size % 4096 != 0) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, 0, 0);
    if (p != MAP_FAILED) return {static_cast<const char*>(p), size};
  }
  buf.resize(std::size_t{1} << 24);
  std::size_t size = 0;
  for (;;) {
    if (size == buf.size()) buf.resize(buf.size() * 2);
    const ssize_t got = ::read(0, buf.data() + size, buf.size() - size);
    if (got <= 0) break;
    size += static_cast<std::size_t>(got);
  }
  buf.resize(size);
  buf.push_back('\0');
  return {buf.data(), size};
}

struct Reader {
  const char* p;
  std::uint32_t next() {
    while (*p != '\0' && (*p < '0' || *p > '9')) ++p;
    std::uint32_t x = 0;
    while (*p >= '0' && *p <= '9') x = x * 10 + static_cast<std::uint32_t>(*p++ - '0');
    return x;
  }
};

}  // namespace

int main() {
  std::vector<char> buf;
  Reader in{stdin_text(buf).data()};
  const std::uint32_t n = in.next(), m = in.next(), k = in.next();
  std::vector<std::uint32_t> from(m), to(m), offsets(n + 2, 0);
  for (std::uint32_t i = 0; i < m; ++i) {
    from[i] = in.next();
    to[i] = in.next();
    ++offsets[from[i] + 1];
  }
  for (std::uint32_t u = 1; u <= n + 1; ++u) offsets[u] += offsets[u - 1];
  std::vector<std::uint32_t> targets(m), fill(offsets.begin(), offsets.end() - 1), indeg(n + 1, 0);
  for (std::uint32_t i = 0; i < m; ++i) {
    targets[fill[from[i]]++] = to[i];
    ++indeg[to[i]];
  }
  std::vector<std::uint32_t> order;
  order.reserve(n);
  for (std::uint32_t u = 1; u <= n; ++u)
    if (indeg[u] == 0) order.push_back(u);
  for (std::size_t h = 0; h < order.size(); ++h)
    for (std::uint32_t e = offsets[order[h]]; e < offsets[order[h] + 1]; ++e)
      if (--indeg[targets[e]] == 0) order.push_back(targets[e]);
  std::vector<std::uint32_t> sg(n + 1, 0), seen(n + 2, 0);
  for (std::size_t i = order.size(); i-- > 0;) {
    const std::uint32_t u = order[i];
    for (std::uint32_t e = offsets[u]; e < offsets[u + 1]; ++e) seen[sg[targets[e]]] = u;
    std::uint32_t g = 0;
    while (seen[g] == u) ++g;
    sg[u] = g;
  }
  std::uint32_t x = 0;
  for (std::uint32_t i = 0; i < k; ++i) x ^= sg[in.next()];
  std::puts(x != 0 ? "win" : "lose");
  return 0;
}
