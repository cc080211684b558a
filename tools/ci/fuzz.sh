#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++-14, ASan + UBSan, every finding
# fatal) and runs each for N seconds (default 60, what CI runs), as many at
# once as there are cores (libFuzzer runs one process a target):
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

# One target for `seconds`; its log in build/fuzz/fuzz_<target>.log.
fuzz_one() {
  local target=$1
  mkdir -p "build/fuzz/corpus-$target"
  (cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "./tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "corpus-$target" "../../tests/fuzz/corpus/$target" 2>"fuzz_$target.log")
}

targets=(classic edge_list gcsr stream)
at_once=$(nproc)
failed=()
for ((i = 0; i < ${#targets[@]}; i += at_once)); do
  wave=("${targets[@]:i:at_once}")
  echo "== fuzz: ${wave[*]}: $seconds s" >&2
  pids=()
  for target in "${wave[@]}"; do
    fuzz_one "$target" &
    pids+=($!)
  done
  for k in "${!wave[@]}"; do
    target=${wave[$k]}
    if wait "${pids[$k]}"; then
      grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build/fuzz/fuzz_$target.log" | sed "s/^/fuzz_$target: /" >&2 || true
    else
      tail -n 40 "build/fuzz/fuzz_$target.log" >&2
      failed+=("$target")
    fi
  done
done
echo "fuzz: $((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed${failed[*]:+ (${failed[*]})}" >&2
[[ ${#failed[@]} -eq 0 ]]
