// grundy-mpi: grundy's solve and batch across MPI ranks (mpirun, srun).
// The same options as grundy's; rank 0 alone writes stdout and stderr's
// notes, every rank sizes its oneTBB pool to its share of its host's cores.
#include <cstdio>
#include <thread>

#include "command.hpp"
#include "grundy/api/batch_bridge.hpp"
#include "grundy/dist/batch.hpp"
#include "grundy/dist/comm.hpp"
#include "grundy/io/temp_file.hpp"
#include "mpi_solve_command.hpp"

int main(int argc, char** argv) {
  using namespace grundy;
  const dist::Session session(argc, argv);
  const dist::World& world = dist::world();
  cli::Distribution& d = cli::distribution();
  d.leads = world.leads();
  d.ranks = world.size;
  d.default_threads = std::max(1u, std::thread::hardware_concurrency() / static_cast<unsigned>(world.ranks_on_host));
  d.batch = [](const std::vector<std::string>& paths, const Options& options,
               const std::function<void(const BatchResult&)>& each, const BatchSettings& settings) {
    return api::batch_with(&dist::run_batch_across_ranks, paths, options, each, settings);
  };
  if (!d.leads) {
    cli::force_quiet();
    // Only rank 0's stdout is the output (help and --version included).
    if (std::freopen("/dev/null", "w", stdout) == nullptr) return cli::kBadInput;
  }
  if (d.leads)
    set_fatal_signal_note(
        "grundy-mpi: stopped by a signal: a rank ended early (killed, out of memory) or the job was cancelled; no "
        "output file was written\n");
  static constexpr cli::CommandEntry kCommands[] = {{"solve", cli::add_solve_across_ranks}, {"batch", cli::add_batch}};
  const int rc = cli::run_cli(argc, argv, kCommands, "grundy-mpi",
                              "grundy-mpi: grundy's solve and batch across MPI ranks (mpirun -np P grundy-mpi ...)");
  set_fatal_signal_note(nullptr);  // said what it had to: a kill from here on is mpirun ending the job
  return rc;
}
