#!/usr/bin/env bash
# Quick-start command (1): set up, build, and run grundy's main job on a
# built-in default: the problem's sample (answer: win), a DAG of a few
# million edges generated on the spot, and a short benchmark of the small
# datasets, each with its answer or its timings.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/ci/setup.sh
tools/ci/build.sh release
grundy=build/release/engine/grundy
cache=build/cache
mkdir -p "$cache"

timed() {  # prints "<answer>  (<seconds> s)" for one grundy run
  local start end out
  start=$(date +%s%N)
  out=$("$grundy" "$@" | head -n 1)
  end=$(date +%s%N)
  printf '%-5s (%d.%03d s)\n' "$out" $(((end - start) / 1000000000)) $(((end - start) / 1000000 % 1000))
}

echo "sample (datasets/sample.txt, expected: win): $(timed solve datasets/sample.txt)"
big=$cache/quickstart-uniform-1M-4M.txt
if [[ ! -f $big ]]; then
  echo "generating $big (1,000,000 nodes, 4,000,000 edges, 100 tokens)..."
  "$grundy" gen --shape uniform --nodes 1000000 --edges 4000000 --tokens 100 --seed 1 "$big"
fi
echo "uniform DAG, 1M nodes, 4M edges, text ($(du -h "$big" | cut -f1)): $(timed solve "$big")"
"$grundy" convert -q "$big" "$cache/quickstart.gcsr"
echo "the same as .gcsr: $(timed solve "$cache/quickstart.gcsr")"
echo
echo "short benchmark (grundy bench --sizes small --trials 1; full runs: see results/README.md):"
"$grundy" bench --sizes small --trials 1 --cache build/cache/datasets --out build/quickstart-bench 2>/dev/null
cat build/quickstart-bench/bench.md
