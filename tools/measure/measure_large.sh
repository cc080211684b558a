#!/usr/bin/env bash
# The 10^8-edge claims, measured side by side on this machine:
#   1. `grundy gen` writing a 10^8-edge .gcsr (10^7 nodes, uniform): edges/s
#      with 1 and 2 threads (hyperfine; the previous file is removed and the
#      page cache flushed before each run, so each run writes a new file);
#   2. opening that file (`grundy info --json` phases "map input" +
#      "validate") against reading the same graph from text ("map input" +
#      "parse" + "build CSR"), 3 runs each, medians.
# Writes results/large.md and results/large.json. Needs ~2.5 GB of disk in
# build/cache/large (the text form is ~1.9 GB).
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/ci/setup.sh --extra
tools/ci/build.sh release
grundy=$PWD/build/release/engine/grundy
work=build/cache/large
mkdir -p "$work"
spec=(--nodes 10000000 --edges 100000000 --tokens 100 --seed 3)
gcsr=$work/uniform-1e8.gcsr
text=$work/uniform-1e8.txt
hyperfine --style none --runs 3 --prepare "rm -f $gcsr; sync" --export-json results/large-gen.json \
  "$grundy gen --threads 1 ${spec[*]} $gcsr" "$grundy gen --threads 2 ${spec[*]} $gcsr" >/dev/null
[[ -f $text ]] || "$grundy" gen "${spec[@]}" "$text"
for i in 1 2 3; do
  "$grundy" info --json "$gcsr" >"$work/info-gcsr-$i.json"
  "$grundy" info --json "$text" >"$work/info-text-$i.json"
done
/usr/bin/python3 - "$work" <<'PY'
import json, statistics, subprocess, sys
work = sys.argv[1]
commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
gen = json.load(open("results/large-gen.json"))["results"]
def phases(kind):
    runs = [json.load(open(f"{work}/info-{kind}-{i}.json")) for i in (1, 2, 3)]
    keys = ["map input", "validate"] if kind == "gcsr" else ["map input", "parse", "build CSR"]
    per_run = [sum(r["seconds"].get(k, 0.0) for k in keys) for r in runs]
    return runs[0], keys, statistics.median(per_run), per_run
g, gkeys, gopen, gruns = phases("gcsr")
t, tkeys, topen, truns = phases("text")
m = g["m"]
out = {"commit": commit, "cpu": cpu, "cores": cores,
       "gen": [{"command": r["command"], "median_s": r["median"], "edges_per_s": m / r["median"], "times": r["times"]} for r in gen],
       "open_gcsr": {"phases": gkeys, "median_s": gopen, "runs": gruns, "bytes": g["bytes"]},
       "read_text": {"phases": tkeys, "median_s": topen, "runs": truns, "bytes": t["bytes"]},
       "text_over_gcsr": topen / gopen}
json.dump(out, open("results/large.json", "w"), indent=2)
lines = ["# 10^8 edges: generating and opening", "",
         f"Made by `tools/measure/measure_large.sh` at commit `{commit}` on {cpu} ({cores} cores). "
         f"Graph: `grundy gen --nodes 10000000 --edges 100000000 --tokens 100 --seed 3` (uniform, random ids).", "",
         "## `grundy gen` to `.gcsr` (hyperfine, a new file each run)", "",
         "| command | median | edges/s | runs |", "| --- | ---: | ---: | --- |"]
for r in out["gen"]:
    lines.append(f"| `{r['command']}` | {r['median_s']:.2f} s | {r['edges_per_s']/1e6:.0f} M | {', '.join(f'{x:.2f}' for x in r['times'])} |")
lines += ["", "## Opening the graph: `.gcsr` against text (`grundy info --json` phases, 2 threads)", "",
          "| input | bytes | phases | median | runs |", "| --- | ---: | --- | ---: | --- |",
          f"| `.gcsr` | {g['bytes']:,} | {' + '.join(gkeys)} | {gopen:.3f} s | {', '.join(f'{x:.3f}' for x in gruns)} |",
          f"| text | {t['bytes']:,} | {' + '.join(tkeys)} | {topen:.3f} s | {', '.join(f'{x:.3f}' for x in truns)} |", "",
          f"Reading the text takes **{topen / gopen:.0f}×** as long as opening and validating the `.gcsr` file."]
open("results/large.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
