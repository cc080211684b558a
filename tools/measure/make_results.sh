#!/usr/bin/env bash
# Regenerates everything in results/ on this machine, in one command:
#   tools/measure/make_results.sh [sizes]     # default: small,medium,large
# grundy bench (JSON, CSV, Markdown), the plots, the whole-process
# comparisons, the 10^8-edge gen/open and (with the large sizes) the 10^9-edge
# gen/solve measurements, then results/README.md's tables are refreshed from them.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=${1:-small,medium,large}
tools/ci/setup.sh --extra
tools/ci/build.sh release
build/release/engine/grundy bench --sizes "$sizes" --threads 1,2 --trials 5 --cache build/cache/datasets --out results
/usr/bin/python3 tools/measure/plot_results.py results/bench.json results
build/release/bench/grundy_kernels --benchmark_min_time=0.3 --benchmark_format=json --benchmark_out=results/kernels.json --benchmark_out_format=json >/dev/null
tools/measure/compare_processes.sh
tools/measure/measure_large.sh
# 10^9 edges (about 2.5 minutes, 4.8 GB of disk and as much of /dev/shm): with the large sizes.
if [[ $sizes == *large* ]]; then tools/measure/measure_billion.sh; fi
/usr/bin/python3 tools/measure/render_results_readme.py
