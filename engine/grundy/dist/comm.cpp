#include "grundy/dist/comm.hpp"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "grundy/core/input_error.hpp"

namespace grundy::dist {
namespace {

World g_world;

// MPI counts are int: a part past 2^31 - 1 entries is refused, not cut.
int count_of(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw InputError(std::string("grundy-mpi: ") + what + ": a message of " + std::to_string(n) +
                     " entries is more than MPI's 2^31 - 1");
  return static_cast<int>(n);
}

void reduce(std::span<std::uint64_t> values, MPI_Op op) {
  ++g_world.collectives;
  g_world.bytes_sent += values.size_bytes();
  MPI_Allreduce(MPI_IN_PLACE, values.data(), count_of(values.size(), "allreduce"), MPI_UINT64_T, op, MPI_COMM_WORLD);
}

}  // namespace

Session::Session(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_world.size);
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_world.rank, MPI_INFO_NULL, &host);
  MPI_Comm_size(host, &g_world.ranks_on_host);
  MPI_Comm_free(&host);
}

Session::~Session() { MPI_Finalize(); }

World& world() { return g_world; }

void sum_all(std::span<std::uint64_t> values) { reduce(values, MPI_SUM); }
void max_all(std::span<std::uint64_t> values) { reduce(values, MPI_MAX); }
void min_all(std::span<std::uint64_t> values) { reduce(values, MPI_MIN); }
void xor_all(std::span<std::uint64_t> values) { reduce(values, MPI_BXOR); }

std::string broadcast(std::string text, int root) {
  std::uint64_t size = text.size();
  ++g_world.collectives;
  MPI_Bcast(&size, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
  text.resize(size);
  if (size > 0) {
    ++g_world.collectives;
    if (g_world.rank == root) g_world.bytes_sent += size * static_cast<std::uint64_t>(g_world.size - 1);
    MPI_Bcast(text.data(), count_of(size, "broadcast"), MPI_CHAR, root, MPI_COMM_WORLD);
  }
  return text;
}

std::vector<std::uint64_t> gather_all(std::uint64_t value) {
  std::vector<std::uint64_t> all(static_cast<std::size_t>(g_world.size));
  ++g_world.collectives;
  g_world.bytes_sent += sizeof value * static_cast<std::uint64_t>(g_world.size - 1);
  MPI_Allgather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  return all;
}

std::vector<std::uint32_t> trade(const std::vector<std::vector<std::uint32_t>>& out, std::vector<std::size_t>* from,
                                 std::span<const std::uint64_t> extra, std::span<std::uint64_t> extra_sums) {
  const auto p = static_cast<std::size_t>(g_world.size);
  const std::size_t words = 1 + extra.size();
  // Each rank's header to each rank: its part's size, then the extra words.
  std::vector<std::uint64_t> head(p * words), got(p * words);
  for (std::size_t r = 0; r < p; ++r) {
    head[r * words] = out[r].size();
    for (std::size_t i = 0; i < extra.size(); ++i) head[r * words + 1 + i] = extra[i];
  }
  ++g_world.collectives;
  g_world.bytes_sent += (p - 1) * words * sizeof(std::uint64_t);
  MPI_Alltoall(head.data(), count_of(words, "exchange"), MPI_UINT64_T, got.data(), count_of(words, "exchange"),
               MPI_UINT64_T, MPI_COMM_WORLD);
  for (std::size_t i = 0; i < extra_sums.size(); ++i) {
    extra_sums[i] = 0;
    for (std::size_t r = 0; r < p; ++r) extra_sums[i] += got[r * words + 1 + i];
  }
  std::vector<int> send_counts(p), send_at(p), receive_counts(p), receive_at(p);
  std::vector<std::uint32_t> packed;
  std::size_t total_out = 0, total_in = 0;
  for (std::size_t r = 0; r < p; ++r) {
    send_at[r] = count_of(total_out, "exchange");
    send_counts[r] = count_of(out[r].size(), "exchange");
    total_out += out[r].size();
    receive_at[r] = count_of(total_in, "exchange");
    receive_counts[r] = count_of(got[r * words], "exchange");
    total_in += got[r * words];
  }
  count_of(total_out, "exchange");
  count_of(total_in, "exchange");
  if (from) {
    from->assign(p + 1, 0);
    for (std::size_t r = 0; r < p; ++r) (*from)[r + 1] = (*from)[r] + got[r * words];
  }
  std::vector<std::uint32_t> in(total_in);
  packed.reserve(total_out);
  for (std::size_t r = 0; r < p; ++r) {
    packed.insert(packed.end(), out[r].begin(), out[r].end());
    if (r != static_cast<std::size_t>(g_world.rank)) g_world.bytes_sent += out[r].size() * sizeof(std::uint32_t);
  }
  ++g_world.collectives;
  MPI_Alltoallv(packed.data(), send_counts.data(), send_at.data(), MPI_UINT32_T, in.data(), receive_counts.data(),
                receive_at.data(), MPI_UINT32_T, MPI_COMM_WORLD);
  return in;
}

std::vector<char> gather_bytes(std::span<const char> mine, int root, std::vector<std::size_t>* from) {
  const std::vector<std::uint64_t> sizes = gather_all(mine.size());
  const auto p = static_cast<std::size_t>(g_world.size);
  std::vector<int> counts(p), at(p);
  std::size_t total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    at[r] = count_of(total, "gather");
    counts[r] = count_of(sizes[r], "gather");
    total += sizes[r];
  }
  count_of(total, "gather");
  if (from) {
    from->assign(p + 1, 0);
    for (std::size_t r = 0; r < p; ++r) (*from)[r + 1] = (*from)[r] + sizes[r];
  }
  std::vector<char> all(g_world.rank == root ? total : 0);
  ++g_world.collectives;
  if (g_world.rank != root) g_world.bytes_sent += mine.size();
  MPI_Gatherv(mine.data(), count_of(mine.size(), "gather"), MPI_CHAR, all.data(), counts.data(), at.data(), MPI_CHAR,
              root, MPI_COMM_WORLD);
  return all;
}

void send_bytes(const std::string& bytes, int to, int tag) {
  g_world.bytes_sent += bytes.size();
  MPI_Send(bytes.data(), count_of(bytes.size(), "send"), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::string receive_bytes(int from, int tag, int* source) {
  MPI_Status status;
  MPI_Probe(from < 0 ? MPI_ANY_SOURCE : from, tag, MPI_COMM_WORLD, &status);
  int size = 0;
  MPI_Get_count(&status, MPI_CHAR, &size);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  MPI_Recv(bytes.data(), size, MPI_CHAR, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (source) *source = status.MPI_SOURCE;
  return bytes;
}

struct Postbox::Letter {
  std::string bytes;
  MPI_Request request;
};

Postbox::Postbox() = default;

void Postbox::post(std::string bytes, int to, int tag) {
  collect(false);
  letters_.push_back(std::make_unique<Letter>(Letter{std::move(bytes), MPI_REQUEST_NULL}));
  Letter& letter = *letters_.back();
  g_world.bytes_sent += letter.bytes.size();
  MPI_Isend(letter.bytes.data(), count_of(letter.bytes.size(), "send"), MPI_CHAR, to, tag, MPI_COMM_WORLD,
            &letter.request);
}

// Drops the letters that have left (all of them, waiting, when `all`).
void Postbox::collect(bool all) {
  std::erase_if(letters_, [all](const std::unique_ptr<Letter>& letter) {
    int done = 1;
    if (all) {
      MPI_Wait(&letter->request, MPI_STATUS_IGNORE);
    } else {
      MPI_Test(&letter->request, &done, MPI_STATUS_IGNORE);
    }
    return done != 0;
  });
}

Postbox::~Postbox() { collect(true); }

void together(const std::function<void()>& step) {
  std::string failure;
  bool failed = false;
  try {
    step();
  } catch (const std::bad_alloc&) {
    failed = true;
    failure = "out of memory (rank " + std::to_string(g_world.rank) + ")";
  } catch (const std::exception& e) {
    failed = true;
    failure = e.what();
  }
  const std::uint64_t first = min_all(failed ? static_cast<std::uint64_t>(g_world.rank) : UINT64_MAX);
  if (first == UINT64_MAX) return;
  throw InputError(broadcast(failure, static_cast<int>(first)));
}

void abort_all(const std::string& message, int code) {
  std::fprintf(stderr, "grundy-mpi: %s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

}  // namespace grundy::dist
