// --stats and --stats-json for `grundy solve`: where a run's time went, by
// phase (with each phase's edges per second) and by worker within each
// phase (busy, from the trace's spans, and idle), with the share of the
// mex work on each of its three paths.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/io/output_file.hpp"

namespace grundy::cli {

/// The mex's paths by out-degree: an unrolled body (below
/// Tuning::unrolled_degrees), the one-word loop (below 64), the bitset.
struct MexPaths {
  std::uint64_t nodes[3] = {}, edges[3] = {};
  static constexpr const char* kNames[3] = {"unrolled", "word", "bitset"};
  static MexPaths of(const CsrView& graph);

  /// The share of path k's edges among m (0 without edges).
  double edge_share(int k, std::uint64_t m) const {
    return m ? static_cast<double>(edges[k]) / static_cast<double>(m) : 0;
  }
  /// The fast path (under 64 successors: the first two) and its shares of
  /// n nodes and m edges (all of an empty graph).
  std::uint64_t fast_nodes() const { return nodes[0] + nodes[1]; }
  double fast_node_share(std::uint64_t n) const {
    return n ? static_cast<double>(fast_nodes()) / static_cast<double>(n) : 1;
  }
  double fast_edge_share(std::uint64_t m) const {
    return m ? static_cast<double>(edges[0] + edges[1]) / static_cast<double>(m) : 1;
  }
};

/// Facts of the run the summary and the trace carry besides the timings.
struct ProfileFacts {
  std::string command = "solve";
  std::string input, algo;
  unsigned threads = 1;
  CsrView graph{};
  MexPaths mex{};  ///< of `graph`, found once by the caller (MexPaths::of) when a report needs it
};

struct WorkerTime {
  std::string thread;
  double busy = 0, idle = 0;  ///< seconds within the phase
};

struct PhaseStats {
  std::string name;
  double start = 0, seconds = 0, edges_per_second = 0;
  std::vector<WorkerTime> workers;  ///< empty without a trace
};

struct RunStats {
  std::vector<PhaseStats> phases;
  LayeringParts layering;
  std::size_t layering_phase = 0;  ///< the phase `layering` belongs to (PhaseTimer::last)
  std::uint64_t mex_layers = 0, mex_steps = 0;
};

/// The phases of `timer`, and each worker's busy time in them from
/// `recorder`'s spans (null: none).
RunStats analyze(const PhaseTimer& timer, const trace::Recorder* recorder, const ProfileFacts& facts);

/// The lines of --stats, on stderr.
void print_stats(const RunStats& stats, const ProfileFacts& facts);
/// --stats-json: the same as one JSON object ("schema": 1, docs/PROFILING.md).
void write_stats_json(OutputFile& out, const RunStats& stats, const ProfileFacts& facts);

}  // namespace grundy::cli
