// grundy solve [FILE|-]: one instance in, "win" or "lose" out.
#include <tbb/global_control.h>

#include <memory>
#include <optional>

#include "command.hpp"
#include "grundy/classic_text.hpp"
#include "grundy/cycle.hpp"
#include "grundy/game.hpp"
#include "grundy/input_error.hpp"
#include "grundy/mapped_file.hpp"
#include "grundy/output_file.hpp"
#include "grundy/serial_solver.hpp"

namespace grundy::cli {
namespace {

struct SolveOptions {
  std::string input = "-";
  std::string sg_out;
  bool move = false;
  unsigned threads = 0;
  std::string algo = "auto";
};

int run_solve(const SolveOptions& o) {
  // Only an explicit --threads caps oneTBB; creating the limit is cheap and
  // starts no threads, so a small input still runs on the main thread alone.
  std::optional<tbb::global_control> limit;
  if (o.threads > 0) limit.emplace(tbb::global_control::max_allowed_parallelism, o.threads);

  const MappedFile in(o.input);
  const OwnedGame game = parse_classic(in.bytes(), {in.name(), resolve_threads(o.threads)});
  std::vector<sg_t> sg;
  try {
    sg = serial_sg(game.graph());
  } catch (const CycleError& e) {
    throw InputError(in.name() + ": " + e.what());
  }
  const sg_t total = nim_sum(sg, game.tokens);

  // The SG file is published before anything reaches stdout, so a failure
  // there leaves stdout empty, as every error must.
  if (!o.sg_out.empty() && o.sg_out != "-") {
    OutputFile file(o.sg_out);
    write_lines(file, sg);
    file.commit();
  }
  OutputFile out("-");
  out.write(total != 0 ? "win\n" : "lose\n");
  if (o.move) {
    std::string line = "move ";
    if (const auto mv = winning_move(game.view(), sg)) {
      append_number(line, mv->token + 1, ' ');
      append_number(line, std::uint64_t{mv->from} + 1, ' ');
      append_number(line, std::uint64_t{mv->to} + 1);
    } else {
      line += "none\n";
    }
    out.write(line);
  }
  if (o.sg_out == "-") write_lines(out, sg);
  out.commit();
  return kOk;
}

}  // namespace

Command add_solve(CLI::App& root) {
  auto opts = std::make_shared<SolveOptions>();
  CLI::App* sub = root.add_subcommand("solve", "solve one instance: prints win or lose");
  sub->add_option("input", opts->input, "classic text instance (\"-\": stdin)")
      ->default_str("-");
  sub->add_option("--sg-out", opts->sg_out,
                  "write every node's SG value, one per line for nodes 1..N (\"-\": stdout, "
                  "after the verdict)");
  sub->add_flag("--move", opts->move,
                "second line: one winning move \"move <token> <from> <to>\" (1-based), or "
                "\"move none\"");
  sub->add_option("--algo", opts->algo, "solver: auto, serial")
      ->check(CLI::IsMember({"auto", "serial"}))
      ->default_str("auto");
  add_threads_option(*sub, opts->threads);
  return {sub, [opts] { return run_solve(*opts); }};
}

}  // namespace grundy::cli
