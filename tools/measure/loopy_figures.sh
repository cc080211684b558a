#!/usr/bin/env bash
# The figures issue 23 asks of games with cycles, on this machine:
#   1. 10^7 edges: grundy solve --loopy on random digraphs (uniform and
#      kron, N 10^6) against grundy solve of the uniform DAG of the same
#      size, whole processes side by side (hyperfine, medians: one run);
#   2. per stage: grundy bench --loopy on the four shapes with cycles at
#      10^7 edges, 1 and 2 threads (bench.json keeps every phase's samples);
#   3. 10^8 edges (N 10^7): the wall time and the peak memory of solve
#      --loopy, against the mapping and the transpose.
# Writes results/loopy.md, results/loopy-processes.json and results/loopy-bench/.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/ci/setup.sh --extra
tools/ci/build.sh release
grundy=$PWD/build/release/engine/grundy
work=build/cache/loopy
out=results
mkdir -p "$work" "$out"
gen() { [[ -f $work/$1.gcsr ]] || "$grundy" gen -q "$work/$1.gcsr" --shape "$2" -n "$3" -m "$4" -k 10; }
gen dag7 uniform 1e6 1e7
gen digraph7 digraph 1e6 1e7
gen kron7 kron-digraph 1e6 1e7
gen digraph8 digraph 1e7 1e8
hyperfine -N --warmup 1 --runs 9 --export-json "$out/loopy-processes.json" \
  "$grundy solve $work/dag7.gcsr" "$grundy solve --loopy $work/digraph7.gcsr" \
  "$grundy solve --loopy $work/kron7.gcsr" >"$work/hyperfine.txt"
rm -rf "$out/loopy-bench"
"$grundy" bench --loopy gen:digraph,nodes=1e6,edges=1e7 gen:kron-digraph,nodes=1e6,edges=1e7 \
  gen:grid,nodes=1e6,edges=1e7 gen:subtraction,nodes=1e6,edges=1e7 --threads 1,2 --trials 5 \
  --out "$out/loopy-bench" 2>"$work/bench.txt"
"$grundy" solve --loopy --stats "$work/digraph8.gcsr" 2>"$work/stats8.txt" >/dev/null
/usr/bin/time -f "%e %M" "$grundy" solve --loopy "$work/digraph8.gcsr" 2>"$work/time8.txt" >/dev/null
/usr/bin/time -f "%e %M" "$grundy" solve "$work/dag7.gcsr" 2>/dev/null >/dev/null
bytes8=$(stat -c %s "$work/digraph8.gcsr")
read -r wall8 peak_kb <"$work/time8.txt"
{
  echo "# Games with cycles: figures"
  echo
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores."
  echo "Commit: $(git rev-parse --short HEAD). Command: \`tools/measure/loopy_figures.sh\` ($(date -u +%Y-%m-%d))."
  echo
  echo "## 10^7 edges, whole processes (hyperfine, 9 runs after 1 warm-up, one run)"
  echo
  echo '```'
  cat "$work/hyperfine.txt"
  echo '```'
  echo
  echo "## Per phase and stage (grundy bench --loopy, 5 trials, medians)"
  echo
  echo '```'
  grep -E '^\S*grundy: bench: \[' "$work/bench.txt" | sed 's/^grundy: bench: //'
  echo '```'
  echo
  echo "Every run's samples, phase by phase: [\`loopy-bench/bench.md\`](loopy-bench/bench.md), \`bench.json\`."
  echo
  echo "## 10^8 edges (gen --shape digraph -n 1e7 -m 1e8), one process"
  echo
  echo "Wall ${wall8} s; peak RSS ${peak_kb} KB. The file is ${bytes8} bytes (mapped), the"
  echo "transpose (N + 1) x 8 + M x 4 bytes; what is left is the per-node arrays:"
  /usr/bin/python3 -c "
peak=${peak_kb}*1024; mapping=${bytes8}; transpose=(10**7+1)*8+10**8*4
print(f'{(peak-mapping-transpose)/1e7:.1f} bytes a node (peak {peak/2**20:.1f} MiB = mapping {mapping/2**20:.1f} MiB + transpose {transpose/2**20:.1f} MiB + the rest).')"
  echo
  echo '```'
  cat "$work/stats8.txt"
  echo '```'
  echo
  echo "## Against the targets of issue 23"
  echo
  /usr/bin/python3 -c "
import json
r = {x['command'].split()[-1].split('/')[-1]: x['median'] for x in json.load(open('$out/loopy-processes.json'))['results']}
dag = r['dag7.gcsr']
for name in ('digraph7.gcsr', 'kron7.gcsr'):
    print(f'- {name}: median {r[name]*1e3:.1f} ms, {r[name]/dag:.2f}x the DAG solve of dag7.gcsr ({dag*1e3:.1f} ms; target: at most 5x).')
print('- 10^8 edges: ${wall8} s (target: at most 60 s); memory per node above (target: at most 16 B beyond the mapping and the transpose).')"
} >"$out/loopy.md"
echo "wrote $out/loopy.md" >&2
