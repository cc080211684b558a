#!/usr/bin/env bash
# One thread-scaling run of `grundy bench` on a machine where nothing is
# installed, from a folder made by tools/measure/bundle.sh:
#   tools/measure/scaling_run.sh BUNDLE OUT [THREADS [BASELINE]]
# THREADS default: 1,2,4,8,<cores>. Writes OUT/machine.txt (processor,
# caches, NUMA nodes, memory), OUT/large/ (medium and large datasets, level
# engine, every thread count), and then either OUT/huge/ (uniform-layered-h,
# 10^9 edges, if the first part ended within 4 minutes) or, given a BASELINE
# bundle (an earlier commit's), OUT/ab.md: tools/measure/ab_phases.sh of the two on
# kron-l, wide-l and uniform-l at 2, 4 and <cores> threads, interleaved.
# Each part runs under a timeout so that a slow machine still returns what
# it finished. Datasets are generated into /tmp/grundy-cache.
set -uo pipefail
cd "$(dirname "$0")/../.."
usage="usage: tools/measure/scaling_run.sh BUNDLE OUT [THREADS [BASELINE]]"
bundle=${1:?$usage}
out=${2:?$usage}
baseline=${4:-}
cores=$(nproc)
threads=${3:-1,2,4,8,$cores}
mkdir -p "$out"
flavour=grundy
grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo || flavour=grundy-x86-64
grundy=$bundle/$flavour
{
  echo "date: $(date -u +%FT%TZ)"
  echo "binary: $grundy"
  echo "cores: $cores"
  grep -m1 'model name' /proc/cpuinfo
  grep -m1 'cpu MHz' /proc/cpuinfo
  grep -m1 '^flags' /proc/cpuinfo | grep -ow 'avx2\|avx512f\|bmi2' | tr '\n' ' '; echo
  echo "sockets: $(grep 'physical id' /proc/cpuinfo | sort -u | wc -l)," \
       "cpu0 shares its core with cpus: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null)"
  echo "NUMA nodes: $(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)"
  for c in /sys/devices/system/cpu/cpu0/cache/index*; do
    [[ -r $c/size ]] && echo "cache L$(cat "$c/level") $(cat "$c/type"): $(cat "$c/size")," \
      "shared by cpus $(cat "$c/shared_cpu_list")"
  done
  grep -m1 MemTotal /proc/meminfo
  echo "kernel: $(uname -sr)"
  (. /etc/os-release && echo "os: $PRETTY_NAME (libraries: the bundle's)")
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"
start=$SECONDS
timeout 300 "$grundy" bench --sizes medium,large \
  --datasets uniform-layered-m,wide-m,uniform-l,uniform-layered-l,wide-l,kron-l \
  --algos level --threads "$threads" --trials 3 --cache /tmp/grundy-cache --out "$out/large"
echo "scaling_run.sh: large part exited $? after $((SECONDS - start)) s"
if [[ -n $baseline ]]; then
  for ds in kron-l wide-l uniform-l; do
    # The bench's file for it (named by the generator's version).
    file=$(ls /tmp/grundy-cache/"$ds".g*.gcsr | head -n 1)
    for t in 2 4 "$cores"; do
      timeout 60 tools/measure/ab_phases.sh "$file" "$t" 3 "$baseline/$flavour" "$grundy"
      echo
    done
  done | tee "$out/ab.md"
  echo "scaling_run.sh: A/B part ended after $((SECONDS - start)) s"
elif ((SECONDS - start < 240)); then
  timeout 180 "$grundy" bench --sizes huge --datasets uniform-layered-h \
    --algos level --threads "$threads" --trials 3 --cache /tmp/grundy-cache --out "$out/huge"
  echo "scaling_run.sh: huge part exited $? after $((SECONDS - start)) s"
fi
