#!/usr/bin/env bash
# perf stat of `grundy solve FILE` twice: the whole process, then the solve
# phases only (--perf-control: perf starts with its events off, grundy
# turns them on after loading and off before the output). Software events,
# which virtual machines without hardware counters still have.
#   tools/measure/perf_solve.sh FILE [THREADS] [GRUNDY]
set -euo pipefail
file=${1:?usage: tools/measure/perf_solve.sh FILE [THREADS] [GRUNDY]}
threads=${2:-2}
grundy=${3:-build/release/engine/grundy}
events=task-clock,page-faults,context-switches
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/ctl" "$work/ack"
echo "== whole process"
perf stat -e "$events" -- "$grundy" solve --threads "$threads" "$file" 2>&1 >/dev/null | grep -E "task-clock|page-faults|context-switches|elapsed"
echo "== the solve phases only (--perf-control)"
perf stat -e "$events" --delay=-1 --control "fifo:$work/ctl,$work/ack" -- \
  "$grundy" solve --threads "$threads" "$file" --perf-control "$work/ctl,$work/ack" 2>&1 >/dev/null |
  grep -E "task-clock|page-faults|context-switches|elapsed|Events"
