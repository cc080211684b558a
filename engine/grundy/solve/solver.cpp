#include "grundy/solve/solver.hpp"
#include "grundy/primitives/parallel.hpp"

#include <algorithm>

#include <atomic>
#include <stdexcept>
#include <string>

#include "grundy/solve/bgl_baseline.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/serial_solver.hpp"

namespace grundy {

Algo parse_algo(std::string_view name) {
  for (Algo a : {Algo::automatic, Algo::level, Algo::serial, Algo::bgl})
    if (algo_name(a) == name) return a;
  throw std::invalid_argument("unknown algorithm \"" + std::string(name) + "\"");
}

std::string_view algo_name(Algo algo) {
  switch (algo) {
    case Algo::automatic: return "auto";
    case Algo::level: return "level";
    case Algo::serial: return "serial";
    case Algo::bgl: return "bgl";
  }
  return "?";
}

const std::vector<std::string>& algo_names() {
  static const std::vector<std::string> names{"auto", "level", "serial", "bgl"};
  return names;
}

std::string describe_mismatch(const Mismatch& bad, std::uint64_t user_node) {
  return "verification failed (" + bad.check + "): node " + std::to_string(user_node) + " has SG " +
         std::to_string(bad.got) + ", expected " + std::to_string(bad.want);
}

std::string describe_verified(std::uint64_t n, std::uint64_t m) {
  return "verified: Boost.Graph baseline + mex rule, " + std::to_string(n) + " nodes, " + std::to_string(m) + " edges";
}

template <class Target>
std::uint64_t planned_solve_bytes(const BasicCsr<Target>& g, Algo algo, bool loopy, bool verify) {
  return graph_bytes(g) + (loopy ? loopy_memory_bytes(g.n, g.m) * (verify ? 2 : 1)
                                 : solve_memory_bytes(g.n, g.m, algo, verify));
}

std::uint64_t solve_memory_bytes(std::uint64_t n, std::uint64_t m, Algo algo, bool verify) {
  // Bytes a node and an edge beyond the graph's own arrays, rounded up from
  // each engine's peak RSS (the commit that set them says how it was taken):
  // the level engine's layers, counters and values; the serial solver's
  // stack and marks; the baseline's own CSR copy, which --verify runs too.
  std::uint64_t per_node = 0, per_edge = 0;
  switch (algo) {
    case Algo::automatic:
    case Algo::level: per_node = 10; break;
    case Algo::serial: per_node = 6; break;
    case Algo::bgl:
      per_node = 18;
      per_edge = 8;
      break;
  }
  if (verify) {
    per_node = std::max<std::uint64_t>(per_node, 22);
    per_edge = 8;
  }
  const auto mul = [](std::uint64_t a, std::uint64_t b) {
    std::uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
  };
  const std::uint64_t a = mul(n, per_node), b = mul(m, per_edge);
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

template <class Target>
SgValues solve_sg(const BasicCsr<Target>& g, Algo algo, const SolveConfig& config, PhaseTimer* timer,
                  const StoredLayers& stored) {
  switch (algo) {
    case Algo::serial: return serial_sg(g, timer);
    case Algo::bgl: return bgl_sg(g, timer);
    case Algo::automatic:
    case Algo::level: break;
  }
  return level_sg(g, config, timer, stored);
}

std::optional<Mismatch> compare_sg(const SgValues& got, const SgValues& want) {
  for (node_t u = 0; u < got.size(); ++u)
    if (got[u] != want[u]) return Mismatch{u, got[u], want[u], "baseline"};
  return std::nullopt;
}

template <class Target>
std::optional<Mismatch> check_mex_rule(const BasicCsr<Target>& g, const SgValues& sg, const ParallelConfig& pc) {
  // The lowest violating node wins, whatever the thread count.
  std::atomic<node_t> first_bad{g.n};
  PerThread<StampMex> mexes([&] { return StampMex(max_degree(g)); });
  sg.visit([&](auto values) {
    for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
      auto& mex = mexes.local();
      for (std::size_t u = b; u < e; ++u) {
        if (values[u] != mex(g.successors(static_cast<node_t>(u)), values.data())) {
          lower_to(first_bad, u);
          return;
        }
      }
    });
  });
  const node_t bad = first_bad.load();
  if (bad == g.n) return std::nullopt;
  sg_t mex_value = 0;
  StampMex mex(max_degree(g));
  sg.visit([&](auto values) { mex_value = mex(g.successors(bad), values.data()); });
  return Mismatch{bad, sg[bad], mex_value, "mex rule"};
}

template <class Target>
std::optional<Mismatch> verify_sg(const BasicCsr<Target>& g, const SgValues& sg, const ParallelConfig& pc, PhaseTimer* timer) {
  const SgValues want = bgl_sg(g, timer);
  if (timer) timer->start("verify");
  auto bad = compare_sg(sg, want);
  if (!bad) bad = check_mex_rule(g, sg, pc);
  if (timer) timer->stop();
  return bad;
}

template SgValues solve_sg(const CsrView&, Algo, const SolveConfig&, PhaseTimer*, const StoredLayers&);
template SgValues solve_sg(const WideCsrView&, Algo, const SolveConfig&, PhaseTimer*, const StoredLayers&);
template std::uint64_t planned_solve_bytes(const CsrView&, Algo, bool, bool);
template std::uint64_t planned_solve_bytes(const WideCsrView&, Algo, bool, bool);
template std::optional<Mismatch> check_mex_rule(const CsrView&, const SgValues&, const ParallelConfig&);
template std::optional<Mismatch> check_mex_rule(const WideCsrView&, const SgValues&, const ParallelConfig&);
template std::optional<Mismatch> verify_sg(const CsrView&, const SgValues&, const ParallelConfig&, PhaseTimer*);
template std::optional<Mismatch> verify_sg(const WideCsrView&, const SgValues&, const ParallelConfig&, PhaseTimer*);

}  // namespace grundy
