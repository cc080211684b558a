#include "profile_report.hpp"

#include <algorithm>
#include <cstdio>

#include "grundy/io/output_file.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

// How much of the mex work takes the 64-bit mask path (out-degree < 64).
struct FastPath {
  std::uint64_t nodes = 0, edges = 0;
};
FastPath fast_path(const CsrView& g) {
  FastPath f;
  for (node_t u = 0; u < g.n; ++u)
    if (g.degree(u) < 64) {
      ++f.nodes;
      f.edges += g.degree(u);
    }
  return f;
}

double share(std::uint64_t part, std::uint64_t whole) {
  return whole ? static_cast<double>(part) / static_cast<double>(whole) : 1.0;
}

struct LayerSummary {
  std::uint64_t layers = 0, widest = 0, steps = 0;
};
LayerSummary summarize(const PhaseTimer& t) {
  LayerSummary s;
  s.steps = t.layers.size();
  for (const auto& l : t.layers) {
    s.layers = std::max(s.layers, l.last_layer + 1);
    if (l.first_layer == l.last_layer)
      s.widest = std::max(s.widest, l.nodes);
    else
      s.widest = std::max<std::uint64_t>(s.widest, 1);
  }
  return s;
}

}  // namespace

void print_stats(const PhaseTimer& timer, const ProfileFacts& f) {
  double total = 0;
  const LayeringParts& lp = timer.layering_parts;
  for (const auto& [name, start, seconds] : timer.phases()) {
    std::fprintf(stderr, "grundy: %-22s %9.3f ms\n", name.c_str(), seconds * 1e3);
    total += seconds;
    if (name == "layering" && lp.count + lp.scans + lp.rounds > 0) {
      std::fprintf(stderr, "grundy:   %-20s %9.3f ms\n", "in-degree count", lp.count * 1e3);
      std::fprintf(stderr, "grundy:   %-20s %9.3f ms\n", "rounds", lp.rounds * 1e3);
      std::fprintf(stderr, "grundy:   %-20s %9.3f ms\n", "ready-node scans", lp.scans * 1e3);
    }
  }
  std::fprintf(stderr, "grundy: %-22s %9.3f ms\n", "total", total * 1e3);
  const FastPath fp = fast_path(f.graph);
  std::fprintf(stderr, "grundy: mex fast path (out-degree < 64): %.1f%% of nodes, %.1f%% of edges\n",
               100 * share(fp.nodes, f.graph.n), 100 * share(fp.edges, f.graph.m));
  if (!timer.layers.empty()) {
    const LayerSummary s = summarize(timer);
    std::fprintf(stderr, "grundy: mex pass: %llu layers in %llu steps (wide layers alone, narrow ones in runs)\n",
                 static_cast<unsigned long long>(s.layers), static_cast<unsigned long long>(s.steps));
  }
}

void write_profile(const std::string& path, const PhaseTimer& timer, const ProfileFacts& f) {
  const auto us = [](double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e6);
    return std::string(buf);
  };
  std::string j = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  j += "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"phases\"}},\n";
  j +=
      "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 2, \"args\": {\"name\": \"mex pass by layer\"}}";
  const LayeringParts& lp = timer.layering_parts;
  for (const auto& [name, start, seconds] : timer.phases()) {
    j += ",\n{\"name\": " + json_string(name) +
         ", \"cat\": \"phase\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": " + us(start) +
         ", \"dur\": " + us(seconds);
    // Layering's parts interleave (a scan after each wide round), so they
    // are its event's arguments, not events of their own.
    if (name == "layering" && lp.count + lp.scans + lp.rounds > 0)
      j += ", \"args\": {\"in-degree count us\": " + us(lp.count) + ", \"rounds us\": " + us(lp.rounds) +
           ", \"ready-node scans us\": " + us(lp.scans) + "}";
    j += "}";
  }
  for (const auto& l : timer.layers) {
    const std::string name = l.first_layer == l.last_layer
                                 ? "layer " + std::to_string(l.first_layer)
                                 : "layers " + std::to_string(l.first_layer) + "-" + std::to_string(l.last_layer);
    j += ",\n{\"name\": " + json_string(name) +
         ", \"cat\": \"mex\", \"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": " + us(l.start) +
         ", \"dur\": " + us(l.seconds) + ", \"args\": {\"width\": " + std::to_string(l.nodes) +
         ", \"edges\": " + std::to_string(l.edges) +
         ", \"layers\": " + std::to_string(l.last_layer - l.first_layer + 1) + "}}";
  }
  const FastPath fp = fast_path(f.graph);
  char shares[160];
  std::snprintf(shares, sizeof shares,
                "\"mex_fast_path_nodes\": %llu, \"mex_fast_path_node_share\": %.6f, \"mex_fast_path_edge_share\": %.6f",
                static_cast<unsigned long long>(fp.nodes), share(fp.nodes, f.graph.n), share(fp.edges, f.graph.m));
  j += "\n], \"otherData\": {\"input\": " + json_string(f.input) + ", \"algo\": " + json_string(f.algo) +
       ", \"threads\": " + std::to_string(f.threads) + ", \"n\": " + std::to_string(f.graph.n) +
       ", \"m\": " + std::to_string(f.graph.m) + ", \"layer_steps\": " + std::to_string(timer.layers.size()) + ", " +
       shares + "}}\n";
  OutputFile out(path);
  out.write(j);
  out.commit();
}

}  // namespace grundy::cli
