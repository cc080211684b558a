#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++-14, ASan + UBSan, every finding
# fatal) and runs each for N seconds (default 60, what CI runs):
#   tools/ci/fuzz.sh          # 60 s per target
#   tools/ci/fuzz.sh 600      # the longer run, 10 minutes per target
# Seeds come from tests/fuzz/corpus/<target>; what a run discovers is kept in
# build/fuzz/corpus-<target> (not committed). A crash leaves crash-* files in
# build/fuzz: turn each into a regression test before fixing it.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
tools/ci/setup.sh
CC=clang-14 CXX=clang++-14 cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGRUNDY_FUZZ=ON -DGRUNDY_SANITIZE=address,undefined -DGRUNDY_WERROR=ON \
  -DGRUNDY_BUILD_TESTS=OFF -DGRUNDY_BUILD_BENCH=OFF >/dev/null
cmake --build build/fuzz --target fuzz_classic fuzz_edge_list fuzz_gcsr fuzz_stream -- --quiet
for target in classic edge_list gcsr stream; do
  mkdir -p "build/fuzz/corpus-$target"
  echo "== fuzz_$target: $seconds s" >&2
  (cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "./tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "corpus-$target" "../../tests/fuzz/corpus/$target" 2>"fuzz_$target.log") \
    || { tail -n 40 "build/fuzz/fuzz_$target.log" >&2; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build/fuzz/fuzz_$target.log" >&2 || true
done
echo "fuzz: 4 passed, 0 failed" >&2
