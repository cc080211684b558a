// grundy::batch (grundy.hpp): the engine's batch job (jobs/batch) behind
// the public API, its results and totals in the API's terms.
#include "grundy/api/batch_bridge.hpp"
#include "grundy/api/calls.hpp"

namespace grundy::api {
namespace {

BatchOptions engine_options(const Options& o, const BatchSettings& s, const ParallelConfig& pc) {
  BatchOptions b;
  b.pc = pc;
  b.algo = algo_of(o.engine);
  b.verify = o.verify;
  b.move = s.moves;
  b.loopy = !o.loopy ? LoopyMode::off : s.outcome_only ? LoopyMode::outcome : LoopyMode::values;
  if (s.stream_window > 0) b.stream_window = s.stream_window;
  return b;
}

BatchResult public_result(const InstanceResult& r) {
  BatchResult b;
  b.name = r.name;
  b.path = r.path;
  b.index = r.index;
  b.line = r.line;
  switch (r.status) {
    case InstanceResult::Status::win: b.verdict = Verdict::win; break;
    case InstanceResult::Status::lose: b.verdict = Verdict::lose; break;
    case InstanceResult::Status::draw: b.verdict = Verdict::draw; break;
    case InstanceResult::Status::mismatch: b.mismatch = true; break;
    case InstanceResult::Status::error: break;
  }
  b.error = r.message;
  b.verified = r.verified;
  b.parsed = r.parsed;
  b.solved = r.solved;
  b.nodes = r.n;
  b.edges = r.m;
  b.tokens = r.k;
  b.nim_sum = r.nim_sum;
  if (r.solved && r.depth != InstanceResult::kNoDepth) b.depth = r.depth;
  if (r.move)  // the engine's move is 1-based
    b.move = TokenMove{static_cast<std::size_t>(r.move->token - 1), static_cast<std::uint32_t>(r.move->from - 1),
                       static_cast<std::uint32_t>(r.move->to - 1)};
  b.bytes = r.bytes;
  b.microseconds = r.microseconds;
  return b;
}

BatchTotals public_totals(const BatchCounts& c, std::uint64_t total_bytes) {
  return {c.instances, c.wins,  c.losses, c.draws,      c.errors,
          c.mismatches, c.verified, c.verified_nodes, c.bytes, c.bytes_done, total_bytes};
}

}  // namespace

BatchTotals batch_with(BatchRunner runner, const std::vector<std::string>& paths, const Options& options,
                       const std::function<void(const BatchResult&)>& each, const BatchSettings& settings) {
  return translating("batch", [&] {
    std::vector<std::string> empty_folders;
    const std::vector<BatchInput> inputs = expand_batch_inputs(paths, &empty_folders);
    if (settings.empty_folder)
      for (const std::string& folder : empty_folders) settings.empty_folder(folder);
    std::uint64_t total = 0;
    const BatchCounts counts = with_threads(options.threads, [&](const ParallelConfig& pc) {
      return runner(
          inputs, engine_options(options, settings, pc), [&](const InstanceResult& r) { each(public_result(r)); },
          [&](const BatchCounts& so_far, std::uint64_t total_bytes) {
            total = total_bytes;
            if (settings.progress) settings.progress(public_totals(so_far, total_bytes));
          });
    });
    return public_totals(counts, total);
  });
}

}  // namespace grundy::api

namespace grundy {

BatchTotals batch(const std::vector<std::string>& paths, const Options& options,
                  const std::function<void(const BatchResult&)>& each, const BatchSettings& settings) {
  return api::batch_with(&run_batch, paths, options, each, settings);
}

std::vector<BatchResult> batch(const std::vector<std::string>& paths, const Options& options) {
  std::vector<BatchResult> out;
  batch(paths, options, [&](const BatchResult& r) { out.push_back(r); });
  return out;
}

}  // namespace grundy
