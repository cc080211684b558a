// Cycles: what every solver reports instead of SG values when the input
// graph is not a DAG.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/input_error.hpp"

namespace grundy {

/// The graph has a cycle. nodes() is one cycle, first node repeated at the end.
class CycleError : public std::runtime_error {
 public:
  explicit CycleError(std::vector<node_t> cycle);
  const std::vector<node_t>& nodes() const { return cycle_; }

 private:
  std::vector<node_t> cycle_;
};

/// What every cycle error ends with: where games with cycles are solved.
inline constexpr const char* kLoopyHint = " (a game with cycles: use --loopy)";

/// f(), with a CycleError turned into the InputError users see,
/// "<source>: cycle: 4 -> 9 -> 4 (a game with cycles: use --loopy)".
template <class F>
decltype(auto) naming_cycles(const std::string& source, F&& f) {
  try {
    return f();
  } catch (const CycleError& e) {
    throw InputError(source + ": " + e.what() + kLoopyHint);
  }
}

/// The cycle a depth-first search closes when it meets `v` on its own path
/// (`path`: its frames, root first; node_of(frame) the frame's node): the
/// path from v's frame up, then v again.
template <class Path, class NodeOf>
std::vector<node_t> cycle_on_path(const Path& path, node_t v, NodeOf node_of) {
  auto at = path.begin();
  while (at != path.end() && node_of(*at) != v) ++at;
  std::vector<node_t> cycle;
  for (; at != path.end(); ++at) cycle.push_back(node_of(*at));
  cycle.push_back(v);
  return cycle;
}

/// "cycle: 4 -> 9 -> 4" in 1-based ids, as users see them.
std::string describe_cycle(const std::vector<node_t>& cycle);

/// Finds one cycle among the nodes for which `candidate(u)` is true (a
/// topological sort's leftovers), by an iterative depth-first search: no
/// recursion, so a deep graph cannot overflow the stack. Returns the cycle
/// with its first node repeated at the end, or an empty vector if none.
template <class Target>
std::vector<node_t> find_cycle(const BasicCsr<Target>& graph, const std::function<bool(node_t)>& candidate);

}  // namespace grundy
