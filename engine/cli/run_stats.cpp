#include "run_stats.hpp"

#include <algorithm>
#include <cstdio>

#include "grundy/io/output_file.hpp"
#include "grundy/solve/tuning.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

// Seconds of [lo, hi) that `spans` (begin, end pairs, ns) cover, overlaps
// counted once.
double covered(std::vector<std::pair<std::int64_t, std::int64_t>> spans, std::int64_t lo, std::int64_t hi) {
  for (auto& [b, e] : spans) {
    b = std::max(b, lo);
    e = std::min(e, hi);
  }
  std::sort(spans.begin(), spans.end());
  std::int64_t total = 0, reach = lo;
  for (const auto& [b, e] : spans) {
    if (e <= b || e <= reach) continue;
    total += e - std::max(b, reach);
    reach = e;
  }
  return static_cast<double>(total) * 1e-9;
}

}  // namespace

MexPaths MexPaths::of(const CsrView& g) {
  MexPaths p;
  for (node_t u = 0; u < g.n; ++u) {
    const std::size_t d = g.degree(u);
    const int path = d < Tuning::unrolled_degrees ? 0 : d < Tuning::word_mex_degrees ? 1 : 2;
    ++p.nodes[path];
    p.edges[path] += d;
  }
  return p;
}

RunStats analyze(const PhaseTimer& timer, const trace::Recorder* recorder, const ProfileFacts& f) {
  RunStats s;
  s.layering = timer.layering_parts;
  s.layering_phase = timer.last("layering");  // a deep graph's first layering stops after a depth check
  s.mex_steps = timer.layers.size();
  for (const auto& l : timer.layers) s.mex_layers = std::max(s.mex_layers, l.last_layer + 1);
  std::vector<std::pair<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>>> tracks;
  double offset = 0;  // the timer's seconds at the recorder's start
  if (recorder != nullptr) {
    offset = timer.since(recorder->origin());
    for (const trace::Recorder::Thread* t : recorder->threads()) {
      auto& [name, spans] = tracks.emplace_back(recorder->name_of(*t), std::vector<std::pair<std::int64_t, std::int64_t>>{});
      for (const trace::Event& e : t->events)
        if (e.ph == 'X') spans.emplace_back(e.begin_ns, e.end_ns);
    }
  }
  for (const auto& ph : timer.phases()) {
    PhaseStats p{ph.name, ph.start, ph.seconds, ph.seconds > 0 ? static_cast<double>(f.graph.m) / ph.seconds : 0, {}};
    const auto lo = static_cast<std::int64_t>((ph.start - offset) * 1e9);
    const auto hi = lo + static_cast<std::int64_t>(ph.seconds * 1e9);
    for (const auto& [name, spans] : tracks) {
      const double busy = covered(spans, lo, hi);
      p.workers.push_back({name, busy, std::max(0.0, ph.seconds - busy)});
    }
    s.phases.push_back(std::move(p));
  }
  return s;
}

void print_stats(const RunStats& s, const ProfileFacts& f) {
  double total = 0;
  for (const PhaseStats& p : s.phases) {
    // Edges per second where a phase passes over the edges (not xor, not a blink).
    if (p.name != "xor" && p.seconds >= 1e-4) {
      std::fprintf(stderr, "grundy: %-22s %9.3f ms  %8.1f M edges/s\n", p.name.c_str(), p.seconds * 1e3,
                   p.edges_per_second / 1e6);
    } else {
      std::fprintf(stderr, "grundy: %-22s %9.3f ms\n", p.name.c_str(), p.seconds * 1e3);
    }
    total += p.seconds;
    const LayeringParts& lp = s.layering;
    if (&p == s.phases.data() + s.layering_phase && lp.count + lp.scans + lp.rounds > 0) {
      std::fprintf(stderr, "grundy:   %-20s %9.3f ms\n", "in-degree count", lp.count * 1e3);
      std::fprintf(stderr, "grundy:   %-20s %9.3f ms\n", "rounds", lp.rounds * 1e3);
      std::fprintf(stderr, "grundy:   %-20s %9.3f ms\n", "ready-node scans", lp.scans * 1e3);
    }
    // Per worker, where the phase ran in parallel pieces (the trace's spans).
    if (p.workers.size() > 1 && (p.name == "layering" || p.name == "mex" || p.name == "parse"))
      for (const WorkerTime& w : p.workers)
        std::fprintf(stderr, "grundy:     %-18s busy %9.3f ms, idle %9.3f ms\n", w.thread.c_str(), w.busy * 1e3,
                     w.idle * 1e3);
  }
  std::fprintf(stderr, "grundy: %-22s %9.3f ms\n", "total", total * 1e3);
  const MexPaths& m = f.mex;
  std::fprintf(stderr, "grundy: mex fast path (out-degree < 64): %.1f%% of nodes, %.1f%% of edges\n",
               100 * m.fast_node_share(f.graph.n), 100 * m.fast_edge_share(f.graph.m));
  std::fprintf(stderr, "grundy: mex paths by edges: unrolled (< %zu) %.1f%%, word (< %zu) %.1f%%, bitset %.1f%%\n",
               Tuning::unrolled_degrees, 100 * m.edge_share(0, f.graph.m), Tuning::word_mex_degrees,
               100 * m.edge_share(1, f.graph.m), 100 * m.edge_share(2, f.graph.m));
  if (s.mex_steps > 0)
    std::fprintf(stderr, "grundy: mex pass: %llu layers in %llu steps (wide layers alone, narrow ones in runs; the dataflow "
                 "pass is one)\n",
                 static_cast<unsigned long long>(s.mex_layers), static_cast<unsigned long long>(s.mex_steps));
}

void write_stats_json(OutputFile& out, const RunStats& s, const ProfileFacts& f) {
  std::string j = "{\"schema\": 1, \"command\": " + json_string(f.command) + ", \"input\": " + json_string(f.input) +
                  ", \"algo\": " + json_string(f.algo) + ", \"threads\": " + std::to_string(f.threads) +
                  ", \"n\": " + std::to_string(f.graph.n) + ", \"m\": " + std::to_string(f.graph.m) +
                  ",\n \"phases\": [";
  double total = 0;
  for (std::size_t i = 0; i < s.phases.size(); ++i) {
    const PhaseStats& p = s.phases[i];
    total += p.seconds;
    j += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + json_string(p.name) +
         ", \"start_seconds\": " + json_number(p.start) + ", \"seconds\": " + json_number(p.seconds) +
         ", \"edges_per_second\": " + json_number(p.edges_per_second) + ", \"workers\": [";
    for (std::size_t w = 0; w < p.workers.size(); ++w)
      j += (w ? ", " : "") + std::string("{\"thread\": ") + json_string(p.workers[w].thread) +
           ", \"busy_seconds\": " + json_number(p.workers[w].busy) +
           ", \"idle_seconds\": " + json_number(p.workers[w].idle) + "}";
    j += "]}";
  }
  j += "],\n \"total_seconds\": " + json_number(total) +
       ", \"layering_parts\": {\"count_seconds\": " + json_number(s.layering.count) +
       ", \"rounds_seconds\": " + json_number(s.layering.rounds) +
       ", \"scans_seconds\": " + json_number(s.layering.scans) +
       ", \"paired_rounds\": " + std::to_string(s.layering.paired_rounds) + "},\n \"mex_paths\": {";
  for (int k = 0; k < 3; ++k)
    j += (k ? ", " : "") + json_string(MexPaths::kNames[k]) + ": {\"nodes\": " + std::to_string(f.mex.nodes[k]) +
         ", \"edges\": " + std::to_string(f.mex.edges[k]) +
         ", \"edge_share\": " + json_number(f.mex.edge_share(k, f.graph.m)) + "}";
  j += "}, \"mex_layers\": " + std::to_string(s.mex_layers) + ", \"mex_steps\": " + std::to_string(s.mex_steps) + "}\n";
  out.write(j);
  out.commit();
}

}  // namespace grundy::cli
