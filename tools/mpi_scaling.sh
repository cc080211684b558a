#!/usr/bin/env bash
# grundy-mpi at P = 1..8 ranks on one graph, for results/mpi.md: one line per
# run (ranks, threads per rank, wall seconds, each phase, super-rounds,
# collectives, bytes sent per edge, the largest per-rank peak RSS).
#   tools/mpi_scaling.sh [SPEC] [MAX_RANKS] > runs.tsv
# Oversubscribed and unbound, as on a laptop or CI (README: Beyond one machine).
set -euo pipefail
cd "$(dirname "$0")/.."
spec=${1:-uniform,nodes=2e6,edges=2e7,seed=1}
max=${2:-8}
bin=${GRUNDY_MPI:-build/release/engine/grundy-mpi}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
       OMPI_MCA_btl_vader_single_copy_mechanism=none
printf 'ranks\tthreads\twall_s\tload_s\tghosts_s\tpeel_s\tgather_s\tmex_s\tsuper_rounds\tcollectives\tbytes_per_edge\tpeak_rss_mib\n'
for p in $(seq 1 "$max"); do
  start=$(date +%s%N)
  err=$(mpirun -q -np "$p" --oversubscribe --bind-to none "$bin" solve --gen "$spec" --stats 2>&1 >/dev/null)
  end=$(date +%s%N)
  phase() { grep -oP "Phase $1: +\K[0-9.]+" <<<"$err" || echo 0; }
  printf '%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" \
    "$(grep -oP 'Ranks: +[0-9]+ ranks x \K[0-9]+' <<<"$err")" "$(awk -v a="$start" -v b="$end" 'BEGIN { print (b - a) / 1e9 }')" \
    "$(phase load)" "$(phase ghosts)" "$(phase peel)" "$(phase gather)" "$(phase mex)" \
    "$(grep -oP 'Rounds: +\K[0-9]+' <<<"$err")" "$(grep -oP '; \K[0-9]+(?= collectives)' <<<"$err")" \
    "$(grep -oP '[0-9.]+(?= bytes per edge)' <<<"$err")" \
    "$(grep -oP 'Peak RSS \(MiB\): +\K[0-9, ]+' <<<"$err" | tr ',' '\n' | sort -n | tail -1 | tr -d ' ')"
done
