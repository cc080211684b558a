#!/usr/bin/env bash
# Quick-start command (2): set up, build, and run the whole test suite, once
# in the Release build and once under ASan+UBSan. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
for flavour in release asan; do
  echo "== $flavour: build" >&2
  tools/build.sh "$flavour"
  echo "== $flavour: test" >&2
  ctest --test-dir "build/$flavour" --output-on-failure -j "$(nproc)"
done
