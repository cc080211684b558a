#!/usr/bin/env bash
# Instruction counts of `grundy solve` under callgrind: a repeatable metric
# where wall-clock time is noise (this machine has another tenant). Two
# graphs: the judge-scale instance (N 2000, M 6000) and a 10^6-edge uniform
# one, one thread, the Profile build (tools/ci/build.sh profile). Writes
# results/callgrind.md: total instructions (Ir) of the process and of the
# solve's own functions (layering and mex), with the machine and commit.
#   tools/measure/callgrind_counts.sh [OUT.md]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-results/callgrind.md}
tools/ci/build.sh profile
grundy=build/profile/engine/grundy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$grundy" gen "$work/judge.txt" --nodes 2000 --edges 6000 --tokens 10 --seed 7
"$grundy" gen "$work/uniform-1e6.gcsr" --nodes 100000 --edges 1000000 --tokens 100 --seed 1
{
  echo "# Instruction counts under callgrind"
  echo
  echo "\`tools/measure/callgrind_counts.sh\` at commit $(git rev-parse --short=12 HEAD)$(git diff --quiet || echo -dirty)," \
       "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(valgrind --version), Profile build, one thread." \
       "Counts are of instructions executed (Ir): the same on every run of one binary."
  echo
  echo "| input | whole process Ir | layering Ir | mex Ir |"
  echo "| --- | ---: | ---: | ---: |"
  for input in judge.txt uniform-1e6.gcsr; do
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$grundy" solve --threads 1 "$work/$input" \
      >/dev/null 2>"$work/vg.log"
    total=$(callgrind_annotate --inclusive=yes "$work/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    part() {  # inclusive Ir of the first function whose name matches $1
      callgrind_annotate --inclusive=yes "$work/cg.out" 2>/dev/null |
        awk -v pat="$1" '$0 ~ pat {gsub(",", "", $1); print $1; exit}'
    }
    echo "| $input | $total | $(part 'compute_layers') | $(part 'level_mex') |"
  done
} >"$out"
cat "$out"
