// The engine's kernels in isolation, with Google Benchmark.
//
// Counters follow Google Benchmark's conventions: items_per_second counts
// edges, bytes_per_second input bytes. Parallel kernels take the thread
// count as their argument and run in_arena (a oneTBB arena of that size under a
// global_control cap; not ->Threads(), which would start N copies of the
// benchmark), measured in real time.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "grundy/primitives/arena.hpp"
#include "grundy/solve/bgl_baseline.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/solve/floor_kernel.hpp"
#include "grundy/formats/gcsr.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/solve/layering.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/solve/mex.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/gen/permutation.hpp"
#include "grundy/formats/degree_runs.hpp"
#include "grundy/solve/renumber.hpp"
#include "grundy/solve/serial_solver.hpp"

namespace grundy {
namespace {

// One uniform DAG for the graph kernels: 10^6 nodes, 10^7 edges, random ids.
const OwnedGame& graph() {
  static const OwnedGame g = generate({Shape::uniform, 1'000'000, 10'000'000, 100, 1}, {2});
  return g;
}

// The same graph renumbered by layers (what `convert --layered` stores).
struct Renumbered {
  OwnedGame game;
  Array<node_t> begin, original;
  std::vector<node_t> runs;  // its degree runs, as the file stores them
};
const Renumbered& layered_graph() {
  static const Renumbered r = [] {
    const OwnedGame& g = graph();
    Layers layers = compute_layers(g.graph(), {1});
    Renumbered out;
    out.game.n = g.n;
    out.game.offsets.resize(g.n + 1);
    out.game.targets.resize(g.targets.size());
    out.game.tokens.resize(g.tokens.size());
    out.begin.resize(layers.count() + 1);
    out.original.resize(g.n);
    renumber_by_layers(g.view(), layers, {1},
                       {out.game.offsets.data(), out.game.targets.data(), out.game.tokens.data(), out.begin.data(),
                        out.original.data()});
    out.runs = degree_run_starts(out.game.graph(), out.begin);
    return out;
  }();
  return r;
}

template <class F>
void with_threads(benchmark::State& state, F&& body) {
  const auto threads = static_cast<unsigned>(state.range(0));
  in_arena(threads, [&] { body(ParallelConfig{threads}); });
}

void edges_counter(benchmark::State& state, edge_t m) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * m));
}

// --- mex: the 64-bit mask path against the wide bitset path -----------------

void BM_Mex(benchmark::State& state) {
  const auto degree = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t kNodes = 1 << 12;
  // Successor values 0..degree-1 in a shuffled order: the mex is the degree.
  Array<std::uint16_t> sg(degree);
  Array<node_t> succ(degree * kNodes);
  for (std::size_t i = 0; i < degree; ++i) sg[i] = static_cast<std::uint16_t>(i);
  for (std::size_t i = 0; i < succ.size(); ++i) succ[i] = static_cast<node_t>(mix(1, 1, i) % degree);
  BitsetMex mex;
  for (auto _ : state)
    for (std::size_t u = 0; u < kNodes; ++u) benchmark::DoNotOptimize(mex(succ.data() + u * degree, degree, sg.data()));
  edges_counter(state, degree * kNodes);
  state.SetLabel(degree < 64 ? "mask" : "wide");
}
BENCHMARK(BM_Mex)->Arg(4)->Arg(16)->Arg(63)->Arg(64)->Arg(256)->Arg(2048);

// --- the floor: read every edge, gather the target's value -------------------

void BM_FloorGather(benchmark::State& state) {
  const CsrView g = graph().graph();
  const SgValues values(g.n, g.m);
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) benchmark::DoNotOptimize(floor_gather(g, values, pc));
  });
  edges_counter(state, g.m);
}
BENCHMARK(BM_FloorGather)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// --- layering and one SG pass -------------------------------------------------

void BM_Layering(benchmark::State& state) {
  const CsrView g = graph().graph();
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) benchmark::DoNotOptimize(compute_layers(g, pc).count());
  });
  edges_counter(state, g.m);
}
BENCHMARK(BM_Layering)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// An R-MAT graph's layering (2^20 nodes, 10^7 edges, as kron-m): hubs,
// some 1,200 narrow rounds (paired on two threads), and a first round of
// mostly isolated nodes (docs/TUNING.md#empty-rows).
const OwnedGame& kron_graph() {
  static const OwnedGame g = generate({Shape::kron, 1u << 20, 10'000'000, 100, 2}, {2});
  return g;
}

void BM_LayeringKron(benchmark::State& state) {
  const CsrView g = kron_graph().graph();
  Layers layers;
  InDegreeScratch counters;  // kept, as a solve's trials keep theirs
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) {
      compute_layers(g, pc, layers, counters);
      benchmark::DoNotOptimize(layers.count());
    }
  });
  edges_counter(state, g.m);
}
BENCHMARK(BM_LayeringKron)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same with 4-byte in-degree counters forced, against the 1-byte ones
// that BM_Layering gets (indegree_counters.hpp).
void BM_LayeringWideCounters(benchmark::State& state) {
  const CsrView g = graph().graph();
  Layers layers;
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) {
      compute_layers(g, pc, layers, InDegreeWidth::wide);
      benchmark::DoNotOptimize(layers.count());
    }
  });
  edges_counter(state, g.m);
}
BENCHMARK(BM_LayeringWideCounters)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The mex pass over g's layers (found once, on one thread), asked for
// `asked` threads where oneTBB lends `lent`.
void sg_pass(benchmark::State& state, const CsrView& g, unsigned asked, unsigned lent) {
  const Layers layers = compute_layers(g, {1});
  SgValues sg(g.n, g.m);
  const SolveConfig config(asked);
  in_arena(lent, [&] {
    for (auto _ : state) level_mex(g, {layers.order.data(), layers.begin, {}}, config, sg);
  });
  edges_counter(state, g.m);
}

void BM_SgPass(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  sg_pass(state, graph().graph(), threads, threads);
}
BENCHMARK(BM_SgPass)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The mex pass over the kron graph's layers, three ways: the plain pass on
// one thread; the dataflow pass asked for two threads where oneTBB lends
// one (what the pass costs by itself, apart from a second thread); and the
// dataflow pass on two (docs/TUNING.md#dataflow-mex).
void BM_SgPassKron(benchmark::State& state) {
  sg_pass(state, kron_graph().graph(), static_cast<unsigned>(state.range(0)), static_cast<unsigned>(state.range(1)));
}
BENCHMARK(BM_SgPassKron)
    ->Args({1, 1})
    ->Args({2, 1})
    ->Args({2, 2})
    ->ArgNames({"threads", "lent"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// A layered file's pass, with its degree runs (what files store), and
// without (files written before they were stored): the runs' worth.
void sg_pass_layered(benchmark::State& state, bool with_runs) {
  const Renumbered& r = layered_graph();
  const CsrView g = r.game.graph();
  SgValues sg(g.n, g.m);
  const LayerView layers{nullptr, r.begin, with_runs ? std::span<const node_t>(r.runs) : std::span<const node_t>()};
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) level_mex(g, layers, pc, sg);
  });
  edges_counter(state, g.m);
}
void BM_SgPassLayeredIds(benchmark::State& state) { sg_pass_layered(state, true); }
BENCHMARK(BM_SgPassLayeredIds)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
void BM_SgPassLayeredIdsNoRuns(benchmark::State& state) { sg_pass_layered(state, false); }
BENCHMARK(BM_SgPassLayeredIdsNoRuns)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// --- whole solvers, for scale --------------------------------------------------

void BM_SerialSolver(benchmark::State& state) {
  const CsrView g = graph().graph();
  for (auto _ : state) benchmark::DoNotOptimize(serial_sg(g).size());
  edges_counter(state, g.m);
}
BENCHMARK(BM_SerialSolver)->Unit(benchmark::kMillisecond);

void BM_BglBaseline(benchmark::State& state) {
  const CsrView g = graph().graph();
  for (auto _ : state) benchmark::DoNotOptimize(bgl_sg(g).size());
  edges_counter(state, g.m);
}
BENCHMARK(BM_BglBaseline)->Unit(benchmark::kMillisecond);

// --- one thread below 2^18 nodes: the depth-first pass against layering ----------

// N 10^5, M 10^6 (uniform-s): past L2, where layering's three passes over
// the edges miss and the walk's one does not as often.
const OwnedGame& small_graph() {
  static const OwnedGame g = generate({Shape::uniform, 100'000, 1'000'000, 100, 1}, {1});
  return g;
}

void level_one_thread(benchmark::State& state, std::size_t depth_first_below) {
  const CsrView g = small_graph().graph();
  LevelScratch scratch;
  SgValues sg;
  SolveConfig config{1};
  config.tuning.depth_first_below = depth_first_below;
  for (auto _ : state) {
    level_sg(g, config, scratch, sg);
    benchmark::DoNotOptimize(sg.size());
  }
  edges_counter(state, g.m);
}
void BM_SmallDepthFirst(benchmark::State& state) { level_one_thread(state, SIZE_MAX); }
BENCHMARK(BM_SmallDepthFirst)->Unit(benchmark::kMillisecond);
void BM_SmallLayered(benchmark::State& state) { level_one_thread(state, 0); }
BENCHMARK(BM_SmallLayered)->Unit(benchmark::kMillisecond);

// --- judge-scale instances, the unit of work of `grundy batch` -------------------

// N 2000, M 6000: everything fits in L2, so what counts is instructions per edge.
const OwnedGame& judge_graph() {
  static const OwnedGame g = generate({Shape::uniform, 2000, 6000, 10, 7}, {1});
  return g;
}

void BM_JudgeLevel(benchmark::State& state) {
  const CsrView g = judge_graph().graph();
  LevelScratch scratch;
  SgValues sg;
  for (auto _ : state) {
    level_sg(g, {1}, scratch, sg);
    benchmark::DoNotOptimize(sg.size());
  }
  edges_counter(state, g.m);
}
BENCHMARK(BM_JudgeLevel)->Unit(benchmark::kMicrosecond);

void BM_JudgeSerial(benchmark::State& state) {
  const CsrView g = judge_graph().graph();
  for (auto _ : state) benchmark::DoNotOptimize(serial_sg(g).size());
  edges_counter(state, g.m);
}
BENCHMARK(BM_JudgeSerial)->Unit(benchmark::kMicrosecond);

// --- the generator's id permutation: element by element, and in batches ----------

void BM_PermutationScalar(benchmark::State& state) {
  const Permutation perm(10'000'000, 42);
  std::vector<std::uint32_t> ids(1 << 16);
  for (auto _ : state) {
    for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<std::uint32_t>(perm(k));
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ids.size()));
}
BENCHMARK(BM_PermutationScalar);

void BM_PermutationBatch(benchmark::State& state) {
  const Permutation perm(10'000'000, 42);
  std::vector<std::uint32_t> ids(1 << 16);
  for (auto _ : state) {
    for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<std::uint32_t>(k);
    perm.apply(ids.data(), ids.size());
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ids.size()));
}
BENCHMARK(BM_PermutationBatch);

// --- input: the text parser and the .gcsr validator ----------------------------

const std::string& text_instance() {
  static const std::string text = [] {
    const std::string path = "/tmp/grundy-kernels-" + std::to_string(::getpid()) + ".txt";
    {
      OutputFile f(path);
      write_classic(generate({Shape::uniform, 1'000'000, 2'000'000, 100, 2}).view(), f);
      f.commit();
    }
    MappedFile in(path);
    std::string copy(in.bytes());
    std::remove(path.c_str());
    return copy;
  }();
  return text;
}

void BM_ParseClassic(benchmark::State& state) {
  const std::string& text = text_instance();
  // Into reused arrays, as batch workspaces do: a fresh 30 MB of arrays per
  // iteration measured anywhere from 15 to 57 ms, the page faults' noise.
  OwnedGame game;
  UnzeroedArray<node_t> ids;
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) {
      parse_classic(text, {"bench", pc.threads}, game, ids);
      benchmark::DoNotOptimize(game.n);
    }
  });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseClassic)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_GcsrValidate(benchmark::State& state) {
  static const std::string file = [] {
    const std::string path = "/tmp/grundy-kernels-" + std::to_string(::getpid()) + ".gcsr";
    write_gcsr(path, graph().view());
    MappedFile in(path);
    std::string copy(in.bytes());
    std::remove(path.c_str());
    return copy;
  }();
  with_threads(state, [&](const ParallelConfig& pc) {
    for (auto _ : state) benchmark::DoNotOptimize(read_gcsr(file, "bench", pc).game.graph.m);
  });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.size()));
  edges_counter(state, graph().targets.size());
}
BENCHMARK(BM_GcsrValidate)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace grundy

BENCHMARK_MAIN();
