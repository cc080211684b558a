#include "grundy/solve/loopy_solver.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "grundy/core/input_error.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/solve/transpose.hpp"

namespace grundy {
namespace {

// A node not labelled yet. Above every finite value, below kInfinite, so
// that "unlabelled or infinite" is one comparison.
constexpr sg_t kUnset = kInfinite - 1;

template <class Shared>
std::uint32_t count_down(std::uint32_t& c) {
  if constexpr (Shared::value) return std::atomic_ref<std::uint32_t>(c).fetch_sub(1, std::memory_order_relaxed) - 1;
  return --c;
}

// One bit a node: "has a successor labelled i" in the current stage.
class Marks {
 public:
  explicit Marks(node_t n) : words_((std::size_t{n} + 63) / 64, 0) {}
  template <class Shared>
  bool set(node_t u) {  // true when this call set it
    const std::uint64_t bit = std::uint64_t{1} << (u & 63);
    std::uint64_t& w = words_[u >> 6];
    if constexpr (Shared::value) {
      std::atomic_ref<std::uint64_t> a(w);
      if (a.load(std::memory_order_relaxed) & bit) return false;
      return (a.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
    } else {
      if (w & bit) return false;
      w |= bit;
      return true;
    }
  }
  template <class Shared>
  bool test(node_t u) const {
    const std::uint64_t& w = words_[u >> 6];
    std::uint64_t v;
    if constexpr (Shared::value) {
      v = std::atomic_ref<const std::uint64_t>(w).load(std::memory_order_relaxed);
    } else {
      v = w;
    }
    return (v >> (u & 63)) & 1;
  }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }

 private:
  Array<std::uint64_t> words_;
};

// The mex of u's successors' values, all finite (u is peeled).
template <class Target>
sg_t peeled_mex(const BasicCsr<Target>& g, const sg_t* value, node_t u) {
  const std::size_t d = static_cast<std::size_t>(g.degree(u));
  const Target* succ = g.targets + g.offsets[u];
  if (d < Tuning::word_mex_degrees) return mex_word(succ, d, value);
  thread_local std::vector<std::uint64_t> seen;
  seen.assign(d / 64 + 1, 0);
  for (std::size_t j = 0; j < d; ++j)
    if (value[succ[j]] <= d) seen[value[succ[j]] >> 6] |= std::uint64_t{1} << (value[succ[j]] & 63);
  sg_t x = 0;
  while (seen[x >> 6] >> (x & 63) & 1) ++x;
  return x;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

template <class Target>
class LoopyEngine {
 public:
  LoopyEngine(const BasicCsr<Target>& g, const Transpose& t, const ParallelConfig& pc, LoopyValues& out)
      : g_(g), t_(t), pc_(pc), value_(out.value), count_(out.counter), marks_(g.n) {
    value_.assign(g.n, kUnset);
    count_.assign(g.n, 0);
  }

  // The nodes that cannot reach a cycle, a round per height from the sinks:
  // each gets the mex of its successors, its height as counter, and counts
  // its predecessors down. Returns the number of rounds.
  std::uint64_t peel(std::uint64_t& peeled) {
    std::vector<node_t> frontier, next;
    collect_range(pc_, 0, g_.n, frontier, [&](std::size_t u, std::vector<node_t>& out, auto) {
      const edge_t d = g_.degree(static_cast<node_t>(u));
      if (d >= std::numeric_limits<std::uint32_t>::max())
        throw InputError("node " + std::to_string(u + 1) + " has " + std::to_string(d) +
                         " successors; --loopy counts at most 2^32 - 2 a node");
      count_[u] = static_cast<std::uint32_t>(d);
      if (d == 0) out.push_back(static_cast<node_t>(u));
    });
    std::uint64_t height = 0;
    for (; !frontier.empty(); ++height) {
      peeled += frontier.size();
      collect_range(pc_, 0, frontier.size(), next, [&](std::size_t i, std::vector<node_t>& out, auto shared) {
        using Shared = decltype(shared);
        const node_t u = frontier[i];
        value_[u] = peeled_mex(g_, value_.data(), u);
        count_[u] = static_cast<std::uint32_t>(height);
        for (node_t p : t_.predecessors(u))
          if (count_down<Shared>(count_[p]) == 0) out.push_back(p);
      });
      frontier.swap(next);
      next.clear();
    }
    return height;
  }

  // Fraenkel's stages over the nodes the peel left, counters going on from
  // `first_counter`.
  void label(std::uint32_t first_counter, std::uint64_t peeled, LoopyStats* stats) {
    if (peeled == g_.n) return;
    // One list of what is left, in id order, sized once (a list per thread
    // and their merge would hold it twice).
    Array<node_t> unlabelled;
    unlabelled.reserve(g_.n - peeled);
    for (node_t u = 0; u < g_.n; ++u)
      if (value_[u] == kUnset) unlabelled.push_back(u);
    const std::vector<std::uint64_t> boundary = boundary_by_value();
    counter_ = first_counter;
    std::size_t b = 0;
    for (sg_t i = 0; !unlabelled.empty(); ++i) {
      const std::size_t from = b;
      while (b < boundary.size() && (boundary[b] >> 32) == i) ++b;
      std::vector<node_t> seeds;
      seeds.reserve(b - from);
      for (std::size_t k = from; k < b; ++k) seeds.push_back(static_cast<node_t>(boundary[k]));
      const LoopyStats::Stage s = stage(i, unlabelled, seeds);
      if (stats != nullptr) stats->stages.push_back(s);
    }
  }

  // Stage 0 alone over every node, with nothing peeled: the retrograde
  // analysis of single tokens.
  OutcomeTable outcomes() {
    Array<node_t> all(g_.n);
    for (node_t u = 0; u < g_.n; ++u) all[u] = u;
    stage(0, all, {}, /*keep_marks=*/true);
    OutcomeTable out{Array<Outcome>(g_.n, Outcome::draw), {}};
    for_range(pc_, 0, g_.n, [&](std::size_t b, std::size_t e) {
      for (std::size_t u = b; u < e; ++u) {
        if (value_[u] == 0) {
          out.of[u] = Outcome::lose;
        } else if (marks_.test<std::false_type>(static_cast<node_t>(u))) {
          out.of[u] = Outcome::win;
        }
      }
    });
    out.round = std::move(count_);
    return out;
  }

 private:
  // Peeled nodes with an unlabelled predecessor, as (value << 32 | id),
  // sorted: stage i starts from those of value i.
  std::vector<std::uint64_t> boundary_by_value() {
    std::vector<std::uint64_t> boundary;
    collect_range(pc_, 0, g_.n, boundary, [&](std::size_t u, std::vector<std::uint64_t>& out, auto) {
      if (value_[u] == kUnset) return;
      for (node_t p : t_.predecessors(static_cast<node_t>(u))) {
        if (value_[p] == kUnset) {
          out.push_back(std::uint64_t{value_[u]} << 32 | u);
          return;
        }
      }
    });
    sort_range(pc_, boundary.begin(), boundary.end());
    return boundary;
  }

  // Stage i: label i every unlabelled node whose unlabelled-or-infinite
  // successors all have a successor labelled i, and none itself; then the
  // unlabelled nodes with no successor labelled i become infinite.
  LoopyStats::Stage stage(sg_t i, Array<node_t>& unlabelled, std::span<const node_t> seeds,
                          bool keep_marks = false) {
    const auto start = std::chrono::steady_clock::now();
    LoopyStats::Stage s;
    std::vector<node_t> ready, found;
    // Each unlabelled node counts its unlabelled-or-infinite successors;
    // one with none is ready at once.
    collect_range(pc_, 0, unlabelled.size(), ready, [&](std::size_t k, std::vector<node_t>& out, auto) {
      const node_t u = unlabelled[k];
      std::uint32_t c = 0;
      for (node_t v : g_.successors(u)) c += value_[v] >= kUnset;
      count_[u] = c;
      if (c == 0) out.push_back(u);
    });
    mark_from(seeds, found);  // the peeled nodes of value i
    for (;;) {
      ready.insert(ready.end(), found.begin(), found.end());
      found.clear();
      // A node ready to be labelled is not, after all, when a successor was
      // labelled i meanwhile: every mark of the last round is in by now.
      std::erase_if(ready, [&](node_t u) { return marks_.test<std::false_type>(u); });
      if (ready.empty()) break;
      ++s.rounds;
      s.labelled += ready.size();
      const std::uint32_t c = counter_++;
      for_range(pc_, 0, ready.size(), [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) {
          value_[ready[k]] = i;
          count_[ready[k]] = c;
        }
      });
      mark_from(ready, found);
      ready.clear();
    }
    std::size_t keep = 0;
    for (const node_t u : unlabelled) {
      if (value_[u] == i) continue;
      if (marks_.test<std::false_type>(u)) {
        unlabelled[keep++] = u;
      } else {
        value_[u] = kInfinite;
        count_[u] = 0;
        ++s.infinite;
      }
    }
    unlabelled.resize(keep);
    if (!keep_marks) marks_.clear();
    s.remaining = keep;
    s.seconds = seconds_since(start);
    return s;
  }

  // The nodes `labelled` (value i) mark their unlabelled-or-infinite
  // predecessors; a newly marked node counts its unlabelled predecessors
  // down, and those that reach zero go to `found`.
  void mark_from(std::span<const node_t> labelled, std::vector<node_t>& found) {
    collect_range(pc_, 0, labelled.size(), found, [&](std::size_t k, std::vector<node_t>& out, auto shared) {
      using Shared = decltype(shared);
      for (node_t p : t_.predecessors(labelled[k])) {
        if (value_[p] < kUnset || !marks_.set<Shared>(p)) continue;
        for (node_t q : t_.predecessors(p)) {
          if (value_[q] != kUnset || marks_.test<Shared>(q)) continue;
          if (count_down<Shared>(count_[q]) == 0) out.push_back(q);
        }
      }
    });
  }

  const BasicCsr<Target>& g_;
  const Transpose& t_;
  const ParallelConfig& pc_;
  Array<sg_t>& value_;
  Array<std::uint32_t>& count_;  // successors left to wait for; the counter once labelled
  Marks marks_;
  std::uint32_t counter_ = 0;
};

}  // namespace

LoopyMode parse_loopy_mode(std::string_view word) {
  if (word.empty()) return LoopyMode::off;
  if (word == "values") return LoopyMode::values;
  if (word == "outcome") return LoopyMode::outcome;
  throw std::invalid_argument("unknown --loopy mode \"" + std::string(word) + "\" (values, outcome)");
}

template <class Target>
LoopyValues solve_loopy(const BasicCsr<Target>& g, const ParallelConfig& pc, PhaseTimer* timer, LoopyStats* stats) {
  LoopyStats local;
  LoopyStats& st = stats != nullptr ? *stats : local;
  st = {};  // a caller timing trial after trial gets the last one's
  if (timer) timer->start("transpose");
  const Transpose t = transpose(g, pc);
  st.transpose_bytes = Transpose::bytes(g.n, g.m);
  LoopyValues out;
  LoopyEngine engine(g, t, pc, out);
  if (timer) timer->start("peel");
  st.peel_rounds = engine.peel(st.peeled);
  if (timer) timer->start("stages");
  engine.label(static_cast<std::uint32_t>(st.peel_rounds), st.peeled, &st);
  if (timer) timer->stop();
  return out;
}

template <class Target>
OutcomeTable solve_outcomes(const BasicCsr<Target>& g, const ParallelConfig& pc, PhaseTimer* timer) {
  if (timer) timer->start("transpose");
  const Transpose t = transpose(g, pc);
  if (timer) timer->start("retrograde");
  LoopyValues scratch;
  LoopyEngine engine(g, t, pc, scratch);
  OutcomeTable out = engine.outcomes();
  if (timer) timer->stop();
  return out;
}

template <class Target>
std::optional<node_t> outcome_move(const BasicCsr<Target>& g, const OutcomeTable& outcomes, node_t from) {
  if (outcomes.of[from] != Outcome::win) return std::nullopt;
  std::optional<node_t> best;
  for (node_t v : g.successors(from))
    if (outcomes.of[v] == Outcome::lose && (!best || outcomes.round[v] < outcomes.round[*best])) best = v;
  return best;
}

void require_single_token(const GameView& game, const std::string& name) {
  if (game.tokens.size() > 1)
    throw InputError(name + ": --loopy=outcome decides a single token, and this game has " +
                     std::to_string(game.tokens.size()) + " (--loopy decides sums)");
}

SingleTokenAnswer single_token_answer(const GameView& game, const OutcomeTable& outcomes, bool with_move,
                                      std::span<const node_t> original_ids) {
  SingleTokenAnswer a;
  if (game.tokens.empty()) return a;
  const node_t from = game.tokens[0];
  a.outcome = outcomes.of[from];
  if (with_move)
    if (const auto to = outcome_move(game.graph, outcomes, from)) a.move = user_move_of({0, from, *to}, original_ids);
  return a;
}

std::uint64_t loopy_memory_bytes(std::uint64_t n, std::uint64_t m) {
  // Values and counters (8), the list of unlabelled nodes (4), the
  // frontiers of a round (at most 8, counted whole), the marks; the transpose.
  return Transpose::bytes(n, m) + n * 20 + n / 8;
}

namespace {

// mex of u's successors' finite values.
template <class Target>
sg_t finite_mex(const BasicCsr<Target>& g, const LoopyValues& lv, node_t u, std::vector<std::uint64_t>& seen) {
  const std::size_t d = static_cast<std::size_t>(g.degree(u));
  seen.assign(d / 64 + 1, 0);
  for (node_t v : g.successors(u)) {
    const sg_t x = lv.value[v];
    if (x <= d) seen[x >> 6] |= std::uint64_t{1} << (x & 63);
  }
  sg_t x = 0;
  while (seen[x >> 6] >> (x & 63) & 1) ++x;
  return x;
}

std::string value_word(sg_t x) { return x == kInfinite ? "infinite" : std::to_string(x); }

// What is wrong at u, or "".
template <class Target>
std::string condition_failure(const BasicCsr<Target>& g, const LoopyValues& lv, node_t u, std::uint64_t user,
                              const std::function<std::uint64_t(node_t)>& user_id, std::vector<std::uint64_t>& seen) {
  const sg_t x = lv.value[u];
  const sg_t m = finite_mex(g, lv, u, seen);
  const std::string node = "node " + std::to_string(user);
  if (x != kInfinite) {
    if (x != m)
      return "condition (A): " + node + " has value " + std::to_string(x) + ", the mex of its successors' finite values is " +
             std::to_string(m);
    for (node_t v : g.successors(u)) {
      if (lv.value[v] <= x) continue;
      bool reverses = false;
      for (node_t w : g.successors(v))
        if (lv.value[w] == x && lv.counter[w] < lv.counter[u]) reverses = true;
      if (!reverses)
        return "condition (B): " + node + " has value " + std::to_string(x) + " and counter " +
               std::to_string(lv.counter[u]) + ", its successor " + std::to_string(user_id(v)) + " (value " +
               value_word(lv.value[v]) + ") has no successor of value " + std::to_string(x) + " with a smaller counter";
    }
    return {};
  }
  for (node_t v : g.successors(u)) {
    if (lv.value[v] != kInfinite) continue;
    bool hits = false;
    for (node_t w : g.successors(v)) hits = hits || lv.value[w] == m;
    if (!hits) return {};
  }
  return "condition (C): " + node + " is infinite, but every infinite successor has a successor of value " +
         std::to_string(m) + " (the mex of its successors' finite values)";
}

}  // namespace

template <class Target>
std::optional<LoopyMismatch> check_loopy_conditions(const BasicCsr<Target>& g, const LoopyValues& lv, const ParallelConfig& pc,
                                                    const std::function<std::uint64_t(node_t)>& user_id) {
  std::atomic<node_t> first{g.n};
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    std::vector<std::uint64_t> seen;
    for (std::size_t u = b; u < e && u < first.load(std::memory_order_relaxed); ++u) {
      if (!condition_failure(g, lv, static_cast<node_t>(u), 0, user_id, seen).empty()) {
        lower_to(first, u);
        return;
      }
    }
  });
  if (first.load() == g.n) return std::nullopt;
  const node_t u = first.load();
  std::vector<std::uint64_t> seen;
  return LoopyMismatch{u, condition_failure(g, lv, u, user_id(u), user_id, seen)};
}

template <class Target>
std::optional<node_t> compare_outcomes(const BasicCsr<Target>& g, const LoopyValues& lv, std::span<const Outcome> outcomes,
                                       const ParallelConfig& pc) {
  std::atomic<node_t> first{g.n};
  for_range(pc, 0, g.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t u = b; u < e; ++u) {
      if (node_outcome(g, lv.value, static_cast<node_t>(u)) != outcomes[u]) {
        lower_to(first, u);
        return;
      }
    }
  });
  if (first.load() == g.n) return std::nullopt;
  return first.load();
}

}  // namespace grundy

namespace grundy {

template <class Target>
std::string verify_loopy(const BasicCsr<Target>& g, const LoopyValues& values, std::span<const Outcome> outcomes,
                         const ParallelConfig& pc, const std::function<std::uint64_t(node_t)>& user_id) {
  if (const auto bad = check_loopy_conditions(g, values, pc, user_id)) return "verification failed: " + bad->what;
  if (const auto node = compare_outcomes(g, values, outcomes, pc))
    return "verification failed (retrograde outcomes): node " + std::to_string(user_id(*node)) + " is " +
           outcome_word(outcomes[*node]) + " by the retrograde analysis and " +
           outcome_word(node_outcome(g, values.value, *node)) + " by its value";
  return {};
}

std::string describe_loopy_verified(std::uint64_t n, std::uint64_t m) {
  return "verified: Fraenkel's conditions A, B, C + retrograde outcomes, " + std::to_string(n) + " nodes, " +
         std::to_string(m) + " edges";
}

template LoopyValues solve_loopy(const CsrView&, const ParallelConfig&, PhaseTimer*, LoopyStats*);
template LoopyValues solve_loopy(const WideCsrView&, const ParallelConfig&, PhaseTimer*, LoopyStats*);
template OutcomeTable solve_outcomes(const CsrView&, const ParallelConfig&, PhaseTimer*);
template OutcomeTable solve_outcomes(const WideCsrView&, const ParallelConfig&, PhaseTimer*);
template std::optional<node_t> outcome_move(const CsrView&, const OutcomeTable&, node_t);
template std::optional<node_t> outcome_move(const WideCsrView&, const OutcomeTable&, node_t);
template std::optional<LoopyMismatch> check_loopy_conditions(const CsrView&, const LoopyValues&, const ParallelConfig&, const std::function<std::uint64_t(node_t)>&);
template std::optional<LoopyMismatch> check_loopy_conditions(const WideCsrView&, const LoopyValues&, const ParallelConfig&, const std::function<std::uint64_t(node_t)>&);
template std::string verify_loopy(const CsrView&, const LoopyValues&, std::span<const Outcome>, const ParallelConfig&, const std::function<std::uint64_t(node_t)>&);
template std::string verify_loopy(const WideCsrView&, const LoopyValues&, std::span<const Outcome>, const ParallelConfig&, const std::function<std::uint64_t(node_t)>&);
template std::optional<node_t> compare_outcomes(const CsrView&, const LoopyValues&, std::span<const Outcome>, const ParallelConfig&);
template std::optional<node_t> compare_outcomes(const WideCsrView&, const LoopyValues&, std::span<const Outcome>, const ParallelConfig&);

}  // namespace grundy
