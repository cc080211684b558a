#!/usr/bin/env bash
# Quick-start command (2): set up, build, and run the whole test suite:
# the Release build, then ASan+UBSan, then ThreadSanitizer (against an
# instrumented oneTBB), then a 60-second run of each fuzz target. CI runs
# exactly this.
#   tools/ci/test.sh           # everything (23 minutes on 2 cores from a bare Debian 12, installs included)
#   tools/ci/test.sh --quick   # the Release build's tests only
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/ci/setup.sh
tools/ci/check_floors.sh  # the module floors, intrinsics and oneTBB where they belong
for flavour in release asan; do
  echo "== $flavour: build" >&2
  tools/ci/build.sh "$flavour"
  echo "== $flavour: test" >&2
  ctest --test-dir "build/$flavour" --output-on-failure -j "$(nproc)" -LE long
  [[ "${1:-}" == "--quick" ]] && exit 0
done
tools/ci/tsan.sh
tools/ci/fuzz.sh 60
