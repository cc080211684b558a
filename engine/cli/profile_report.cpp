#include "profile_report.hpp"

#include <algorithm>
#include <cstdio>

#include "grundy/io/output_file.hpp"
#include "json.hpp"

namespace grundy::cli {
namespace {

std::string us(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e6);
  return buf;
}

// The synthetic tracks: phases (tid 1) and the mex pass's steps (tid 2).
void add_timer_events(std::string& j, const PhaseTimer& timer, double offset) {
  j += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"phases\"}}";
  j += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 2, \"args\": {\"name\": \"mex pass by "
       "layer\"}}";
  const LayeringParts& lp = timer.layering_parts;
  // The parts belong to the last layering (a deep graph's first one stops).
  const std::size_t last_layering = timer.last("layering");
  for (std::size_t i = 0; i < timer.phases().size(); ++i) {
    const auto& [name, start, seconds] = timer.phases()[i];
    j += ",\n{\"name\": " + json_string(name) +
         ", \"cat\": \"phase\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": " + us(start - offset) +
         ", \"dur\": " + us(seconds);
    // Layering's parts interleave (a scan after each wide round), so they
    // are its event's arguments, not events of their own.
    if (i == last_layering && lp.count + lp.scans + lp.rounds > 0)
      j += ", \"args\": {\"in-degree count us\": " + us(lp.count) + ", \"rounds us\": " + us(lp.rounds) +
           ", \"ready-node scans us\": " + us(lp.scans) + "}";
    j += "}";
  }
  for (const auto& l : timer.layers) {
    const std::string name = l.first_layer == l.last_layer
                                 ? "layer " + std::to_string(l.first_layer)
                                 : "layers " + std::to_string(l.first_layer) + "-" + std::to_string(l.last_layer);
    j += ",\n{\"name\": " + json_string(name) +
         ", \"cat\": \"mex\", \"ph\": \"X\", \"pid\": 1, \"tid\": 2, \"ts\": " + us(l.start - offset) +
         ", \"dur\": " + us(l.seconds) + ", \"args\": {\"width\": " + std::to_string(l.nodes) +
         ", \"edges\": " + std::to_string(l.edges) +
         ", \"layers\": " + std::to_string(l.last_layer - l.first_layer + 1) + "}}";
  }
}

// Each thread's track (tid 10 + its index) and every counter sample.
void add_recorded_events(std::string& j, const trace::Recorder& recorder) {
  for (const trace::Recorder::Thread* t : recorder.threads()) {
    const std::string tid = std::to_string(10 + t->index);
    j += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": " + tid +
         ", \"args\": {\"name\": " + json_string(recorder.name_of(*t)) + "}}";
    j += ",\n{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": " + tid +
         ", \"args\": {\"sort_index\": " + tid + "}}";
    for (const trace::Event& e : t->events) {
      const std::string ts = us(static_cast<double>(e.begin_ns) * 1e-9);
      if (e.ph == 'C') {
        j += ",\n{\"name\": " + json_string(e.name) + ", \"ph\": \"C\", \"pid\": 1, \"ts\": " + ts +
             ", \"args\": {\"value\": " + std::to_string(e.value0) + "}}";
        continue;
      }
      j += ",\n{\"name\": " + json_string(e.label.empty() ? std::string_view(e.name) : std::string_view(e.label)) +
           ", \"cat\": " + json_string(e.cat) + ", \"ph\": \"X\", \"pid\": 1, \"tid\": " + tid + ", \"ts\": " + ts +
           ", \"dur\": " + us(static_cast<double>(e.end_ns - e.begin_ns) * 1e-9);
      if (e.key0 != nullptr) {
        j += ", \"args\": {" + json_string(e.key0) + ": " + std::to_string(e.value0);
        if (e.key1 != nullptr) j += ", " + json_string(e.key1) + ": " + std::to_string(e.value1);
        j += "}";
      }
      j += "}";
    }
  }
}

}  // namespace

void write_profile(OutputFile& out, const PhaseTimer* timer, const trace::Recorder& recorder, const ProfileFacts& f) {
  std::string j = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  j += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": " +
       json_string("grundy " + f.command + " " + f.input) + "}}";
  // Times from the recorder's start; the timer's are moved onto that origin.
  if (timer != nullptr) add_timer_events(j, *timer, timer->since(recorder.origin()));
  add_recorded_events(j, recorder);
  j += "\n], \"otherData\": {\"command\": " + json_string(f.command) + ", \"input\": " + json_string(f.input) +
       ", \"algo\": " + json_string(f.algo) + ", \"threads\": " + std::to_string(f.threads) +
       ", \"n\": " + std::to_string(f.graph.n) + ", \"m\": " + std::to_string(f.graph.m) +
       ", \"build\": " + json_string(GRUNDY_BUILD_TYPE) + ", \"march\": " + json_string(GRUNDY_MARCH) +
       ", \"dropped_events\": " + std::to_string(recorder.dropped()) + ", \"coalesced\": [";
  for (std::size_t i = 0; i < recorder.coalesced().size(); ++i)
    j += (i ? ", " : "") + json_string(recorder.coalesced()[i]);
  j += "]";
  if (timer != nullptr) {
    char shares[200];
    std::snprintf(shares, sizeof shares,
                  ", \"layer_steps\": %zu, \"mex_fast_path_nodes\": %llu, \"mex_fast_path_node_share\": %.6f, "
                  "\"mex_fast_path_edge_share\": %.6f",
                  timer->layers.size(), static_cast<unsigned long long>(f.mex.fast_nodes()),
                  f.mex.fast_node_share(f.graph.n), f.mex.fast_edge_share(f.graph.m));
    j += shares;
  }
  j += "}}\n";
  out.write(j);
  out.commit();
}

}  // namespace grundy::cli
