#!/usr/bin/env bash
# Whole processes side by side (hyperfine, medians), for the claims that are
# about a user's wall-clock time rather than a kernel's:
#   1. a judge-scale instance (N 2000, M 6000): grundy solve vs a plain
#      cin-based C++ solution (bench/reference/cin_solver.cpp);
#   2. a 10^7-edge text instance: grundy solve (1 and 2 threads) vs cin and
#      vs a tight serial solution (bench/reference/tight_solver.cpp: all of
#      stdin at once, hand parsing, CSR arrays);
#   3. 10,000 judge-scale instances in one stream: grundy batch (1 and 2
#      threads, and 2 threads reading it from a pipe) vs a shell loop running
#      the cin solution once per instance
#      (timed on the first 500 instances, and scaled to 10,000: the loop's
#      cost per instance does not depend on how many follow).
# Writes results/processes.md and results/processes-*.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/ci/setup.sh --extra
tools/ci/build.sh release
grundy=$PWD/build/release/engine/grundy
cin=$PWD/build/release/bench/cin_solver
tight=$PWD/build/release/bench/tight_solver
work=build/cache/processes
out=results
mkdir -p "$work" "$out"
[[ -f $work/judge.txt ]] || "$grundy" gen --nodes 2000 --edges 6000 --tokens 10 --seed 7 "$work/judge.txt"
[[ -f $work/e7.txt ]] || "$grundy" gen --nodes 1000000 --edges 10000000 --tokens 100 --seed 7 "$work/e7.txt"
[[ -f $work/judge10k.txt ]] || "$grundy" gen --nodes 2000 --edges 6000 --tokens 10 --instances 10000 "$work/judge10k.txt"
if [[ ! -d $work/judge500 ]]; then
  mkdir -p "$work/judge500"
  for i in $(seq 1 500); do
    "$grundy" gen --nodes 2000 --edges 6000 --tokens 10 --seed "$i" "$work/judge500/$i.txt"
  done
fi
# The answers must agree before any timing means anything.
# (batch walks a folder in byte order; the loop follows the names it printed.)
"$grundy" batch -q "$work/judge500" >"$work/batch500.tsv"
cut -f2 "$work/batch500.tsv" >"$work/batch500.out"
while read -r file _; do "$cin" <"$file"; done <"$work/batch500.tsv" >"$work/cin500.out"
cmp "$work/batch500.out" "$work/cin500.out"
[[ $("$grundy" solve "$work/e7.txt") == $("$cin" <"$work/e7.txt") ]]
[[ $("$grundy" solve "$work/e7.txt") == $("$tight" <"$work/e7.txt") ]]
[[ $("$grundy" solve "$work/judge.txt") == $("$tight" <"$work/judge.txt") ]]

hf() { hyperfine --style none --export-json "$out/processes-$1.json" "${@:2}" >/dev/null; }
hf judge --warmup 20 --runs 200 "$grundy solve $work/judge.txt" "$cin < $work/judge.txt"
hf text-1e7 --warmup 1 --runs 5 "$grundy solve --threads 1 $work/e7.txt" "$grundy solve --threads 2 $work/e7.txt" \
  "$cin < $work/e7.txt" "$tight < $work/e7.txt"
hf batch --warmup 1 --runs 5 "$grundy batch -q --threads 1 $work/judge10k.txt" \
  "$grundy batch -q --threads 2 $work/judge10k.txt" \
  "cat $work/judge10k.txt | $grundy batch -q --threads 2 -" \
  "for i in \$(seq 1 500); do $cin < $work/judge500/\$i.txt; done"

# Instruction counts are repeatable where wall times are not (valgrind).
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -nE 's/.*I +refs: +([0-9,]+).*/\1/p' | tr -d ,; }
grundy_instr=$(count "$grundy" solve "$work/judge.txt")
cin_instr=$(count "$cin" <"$work/judge.txt")
echo "{\"grundy\": $grundy_instr, \"cin\": $cin_instr}" >"$out/processes-judge-instructions.json"

/usr/bin/python3 - "$out" <<'PY'
import json, sys, subprocess
out = sys.argv[1]
commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
lines = [f"# Whole processes side by side\n",
         f"Made by `tools/measure/compare_processes.sh` at commit `{commit}` on {cpu} ({subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores). "
         "Medians of hyperfine runs; ratios are between commands of the same hyperfine run.\n"]
def table(name, title, scale=None):
    d = json.load(open(f"{out}/processes-{name}.json"))["results"]
    lines.append(f"\n## {title}\n\n| command | median | min | max | runs |\n| --- | ---: | ---: | ---: | ---: |")
    for r in d:
        lines.append(f"| `{r['command']}` | {r['median']*1e3:.2f} ms | {r['min']*1e3:.2f} ms | {r['max']*1e3:.2f} ms | {len(r['times'])} |")
    return {r["command"]: r["median"] for r in d}
j = table("judge", "Judge-scale instance (N 2000, M 6000, 62 KB)")
g, c = list(j.values())
lines.append(f"\ngrundy / cin: **{g / c:.2f}×** the time (below 1 is faster).")
ins = json.load(open(f"{out}/processes-judge-instructions.json"))
lines.append(f"\nInstructions (callgrind, whole process, repeatable): grundy {ins['grundy']/1e6:.2f} M, cin {ins['cin']/1e6:.2f} M: "
             f"**{ins['cin'] / ins['grundy']:.1f}×** fewer for grundy.")
t = table("text-1e7", "10^7-edge text instance (1M nodes, ~150 MB)")
v = list(t.values())
lines.append(f"\n1 thread: {v[0]:.2f} s, 2 threads: {v[1]:.2f} s, cin: {v[2]:.2f} s, tight serial: {v[3]:.2f} s; grundy (2 threads) is "
             f"**{v[2] / v[1]:.1f}×** faster than cin and **{v[3] / v[1]:.2f}×** faster than the tight serial solution.")
b = table("batch", "10,000 judge-scale instances (534 MB stream)")
v = list(b.values())
loop = v[3] * 10000 / 500
lines.append(f"\nThe cin loop, scaled from 500 to 10,000 instances: {loop:.1f} s. grundy batch: {v[0]:.2f} s (1 thread), "
             f"{v[1]:.2f} s (2 threads): **{loop / v[1]:.0f}×** faster than the loop; 2 threads vs 1: **{v[0] / v[1]:.2f}×**. "
             f"The same stream through a pipe (`cat` sharing the cores): {v[2]:.2f} s on 2 threads, **{loop / v[2]:.0f}×** the loop.")
open(f"{out}/processes.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
