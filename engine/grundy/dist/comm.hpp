// The MPI world grundy-mpi runs in: one object that starts and ends MPI, and
// the few collectives the distributed batch and solve are written in, typed
// and counted (bytes sent and collectives called, for --stats).
//
// Only the main thread calls MPI (MPI_THREAD_FUNNELED): oneTBB's workers
// inside a rank never do. Every helper here is collective unless it says
// otherwise, and every rank must call it in the same order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace grundy::dist {

/// Starts MPI (MPI_Init_thread, FUNNELED) and ends it (MPI_Finalize).
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

/// This rank, the ranks, and what the exchanges cost so far.
struct World {
  int rank = 0;
  int size = 1;
  int ranks_on_host = 1;          ///< ranks sharing this rank's host (MPI_COMM_TYPE_SHARED)
  std::uint64_t bytes_sent = 0;   ///< payload this rank sent, all helpers
  std::uint64_t collectives = 0;  ///< collective calls this rank made

  bool leads() const { return rank == 0; }
};

/// The world (valid once a Session exists).
World& world();

/// The sums (max, min, xor) of each entry over all ranks, in place.
void sum_all(std::span<std::uint64_t> values);
void max_all(std::span<std::uint64_t> values);
void min_all(std::span<std::uint64_t> values);
void xor_all(std::span<std::uint64_t> values);
inline std::uint64_t sum_all(std::uint64_t v) {
  sum_all(std::span(&v, 1));
  return v;
}
inline std::uint64_t max_all(std::uint64_t v) {
  max_all(std::span(&v, 1));
  return v;
}
inline std::uint64_t min_all(std::uint64_t v) {
  min_all(std::span(&v, 1));
  return v;
}

/// Root's `text` on every rank.
std::string broadcast(std::string text, int root = 0);

/// Every rank's u64 `value`, in rank order, on every rank.
std::vector<std::uint64_t> gather_all(std::uint64_t value);

/// Sends out[r] to rank r and returns what every rank sent here,
/// concatenated in rank order; `from` (if given) gets where each rank's part
/// starts (size + 1 entries). Counts go first (one MPI_Alltoall), each
/// carrying `extra` words that every rank sees summed in `extra_sums` (so a
/// round's totals ride on its exchange instead of costing an allreduce).
std::vector<std::uint32_t> trade(const std::vector<std::vector<std::uint32_t>>& out,
                                 std::vector<std::size_t>* from = nullptr, std::span<const std::uint64_t> extra = {},
                                 std::span<std::uint64_t> extra_sums = {});

/// Root's bytes from every rank (their parts in rank order, on root only).
std::vector<char> gather_bytes(std::span<const char> mine, int root, std::vector<std::size_t>* from = nullptr);

/// Point to point, for the batch's dealer and workers (not collective).
void send_bytes(const std::string& bytes, int to, int tag);
/// Receives from `from` (or any rank: -1) with `tag`; `source` gets the sender.
std::string receive_bytes(int from, int tag, int* source = nullptr);

/// Sends that do not wait for their receiver (MPI_Isend): each message's
/// bytes are kept until it has left; the destructor waits for them all.
class Postbox {
 public:
  Postbox();
  ~Postbox();
  Postbox(const Postbox&) = delete;
  Postbox& operator=(const Postbox&) = delete;
  void post(std::string bytes, int to, int tag);

 private:
  struct Letter;
  std::vector<std::unique_ptr<Letter>> letters_;  // a letter's bytes and request stay put while it is sent
  void collect(bool all);
};

/// Runs `step` on every rank; if it throws InputError on any, every rank
/// throws InputError with the message of the lowest rank that failed (so
/// that all stop together and rank 0 reports the first slice's error).
void together(const std::function<void()>& step);

/// Ends every rank at once, after `message` on stderr (for a failure only
/// some ranks see, outside together()).
[[noreturn]] void abort_all(const std::string& message, int code);

}  // namespace grundy::dist
