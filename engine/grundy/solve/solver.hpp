// One entry point to every SG engine, and the verifier that checks them.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/phase_timer.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

enum class Algo {
  automatic,  ///< the level engine: fastest at every thread count measured
  level,      ///< parallel Kahn rounds + BitsetMex per layer
  serial,     ///< the reference depth-first solver
  bgl,        ///< the Boost.Graph baseline
};

/// "auto", "level", "serial", "bgl". Throws std::invalid_argument.
Algo parse_algo(std::string_view name);
/// The names parse_algo takes, for option checks and help.
const std::vector<std::string>& algo_names();
std::string_view algo_name(Algo algo);

/// SG value of every node. `stored` (a layered .gcsr's) lets the level
/// engine skip layering; the other engines ignore it.
/// Throws CycleError if the graph is not a DAG.
template <class Target>
SgValues solve_sg(const BasicCsr<Target>& graph, Algo algo, const SolveConfig& config, PhaseTimer* timer = nullptr,
                  const StoredLayers& stored = {});

/// What solving a graph of n nodes and m edges with `algo` (and verifying
/// it) adds to memory, beyond the graph itself: a bound for the memory
/// budget, from peak RSS measured per engine (docs in the source).
std::uint64_t solve_memory_bytes(std::uint64_t n, std::uint64_t m, Algo algo, bool verify);

/// What solving `graph` needs in all, for require_memory: its own arrays and
/// what `algo` (or the loopy engine, whose check runs both engines) adds.
template <class Target>
std::uint64_t planned_solve_bytes(const BasicCsr<Target>& graph, Algo algo, bool loopy, bool verify);

/// The first node whose value disagrees, and both values.
struct Mismatch {
  node_t node = 0;
  sg_t got = 0;
  sg_t want = 0;
  std::string check;  ///< "baseline" or "mex rule"
};

/// "verification failed (baseline): node 5 has SG 1, expected 2", with the
/// node as the user numbers it.
std::string describe_mismatch(const Mismatch& bad, std::uint64_t user_node);

/// What verify_sg checked, said on success: "verified: Boost.Graph
/// baseline + mex rule, 6 nodes, 7 edges".
std::string describe_verified(std::uint64_t n, std::uint64_t m);

/// The first node where `got` and `want` differ (lowest id), if any.
std::optional<Mismatch> compare_sg(const SgValues& got, const SgValues& want);

/// The first node (lowest id) whose value is not the mex of its successors'
/// values: a check of every value that needs no second solver. In parallel.
template <class Target>
std::optional<Mismatch> check_mex_rule(const BasicCsr<Target>& graph, const SgValues& sg, const ParallelConfig& pc);

/// Checks `sg` twice: node by node against the Boost.Graph baseline, and
/// locally, that each value is the mex of its successors' values (in
/// parallel). Returns the first disagreement (lowest node id), if any.
template <class Target>
std::optional<Mismatch> verify_sg(const BasicCsr<Target>& graph, const SgValues& sg, const ParallelConfig& pc,
                                  PhaseTimer* timer = nullptr);

}  // namespace grundy
