// How a mex pass reads and writes SG values: plainly, where no other thread
// writes values it reads meanwhile, or shared, in the dataflow pass, where
// threads solve the layers with no barrier between them.
//
// Shared values start as an "unsolved" mark. A write publishes a value (a
// release store); a read (an acquire load) that finds the mark does not wait
// for the thread that holds the node: it solves the node itself, depth first
// through its unsolved successors, and writes it. The graph is a DAG, so
// both threads find the same value and the second write repeats the first.
// A thread descheduled mid-piece then stalls no other; only a walk down a
// long chain gives up and waits (docs/TUNING.md#dataflow-mex).
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/sg_values.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/tuning.hpp"

namespace grundy {

/// Values no other thread writes meanwhile.
template <class Sg>
class PlainValues {
 public:
  explicit PlainValues(Sg* sg) : sg_(sg) {}
  Sg get(node_t v) const { return sg_[v]; }
  void put(node_t u, Sg x) const { sg_[u] = x; }
  /// The mex of a row of d successors (BitsetMex's unrolled bodies included).
  template <class Target>
  Sg mex(BitsetMex& mex, const Target* succ, std::size_t d) const {
    return mex(succ, d, sg_);
  }

 private:
  Sg* sg_;
};

/// A thread's own, for SharedValues: the depth-first stack of nodes solved
/// ahead (a node and its next successor to look at), and their mex's bitset.
struct SolveAheadScratch {
  std::vector<std::pair<node_t, edge_t>> stack;
  BitsetMex mex;
};

/// Values the threads of the dataflow pass write while others read them.
template <class Sg, class Target>
class SharedValues {
 public:
  using Scratch = SolveAheadScratch;
  static constexpr Sg unsolved = static_cast<Sg>(~Sg{0});
  /// Whether no SG value of a graph with m edges can be the unsolved mark.
  static constexpr bool fit(edge_t m) { return SgValues::values_below(m, unsolved); }

  SharedValues(const edge_t* off, const Target* targets, Sg* sg, Scratch& scratch)
      : off_(off), targets_(targets), sg_(sg), scratch_(scratch) {}

  Sg get(node_t v) {
    const Sg x = load(v);
    if (x != unsolved) [[likely]]
      return x;
    return solve_ahead(v);
  }
  void put(node_t u, Sg x) const { std::atomic_ref<Sg>(sg_[u]).store(x, std::memory_order_release); }
  template <class Any>
  Sg mex(BitsetMex& mex, const Any* succ, std::size_t d) {
    return mex.read_through(succ, d, static_cast<const Sg*>(sg_), [this](node_t v) { return get(v); });
  }

 private:
  Sg load(node_t v) const { return std::atomic_ref<Sg>(sg_[v]).load(std::memory_order_acquire); }

  // Solves v, which another thread holds and has not written yet, and every
  // unsolved node below it: depth first, each node's successors looked at
  // once, from where the last look stopped. Only nodes of pieces still in
  // flight are unsolved, so the walk stays among them. A walk that meets
  // more than Tuning::solve_ahead_nodes nodes is following a chain that
  // the other thread is walking too: it gives up and waits for v.
  [[gnu::noinline]] Sg solve_ahead(node_t v) {
    trace::Span span("mex solved ahead", "mex");
    auto& stack = scratch_.stack;
    stack.emplace_back(v, off_[v]);
    for (std::size_t met = 1; !stack.empty();) {
      const node_t u = stack.back().first;
      const edge_t end = off_[u + 1];
      edge_t next = stack.back().second;
      while (next < end && load(targets_[next]) != unsolved) ++next;
      stack.back().second = next;
      if (next < end) {
        if (++met > Tuning::solve_ahead_nodes) {
          stack.clear();
          trace::Span wait("mex wait", "mex");
          Sg x = unsolved;
          spin_until([&] { return (x = load(v)) != unsolved; });
          return x;
        }
        const node_t w = targets_[next];
        stack.emplace_back(w, off_[w]);
        continue;
      }
      const auto d = static_cast<std::size_t>(end - off_[u]);
      put(u, scratch_.mex.read_through(targets_ + off_[u], d, static_cast<const Sg*>(sg_),
                                       [this](node_t w) { return load(w); }));
      stack.pop_back();
    }
    return load(v);
  }

  const edge_t* off_;
  const Target* targets_;
  Sg* sg_;
  Scratch& scratch_;
};

}  // namespace grundy
