#!/usr/bin/env bash
# The house's rules, checked (tools/ci/test.sh runs this first; docs/ARCHITECTURE.md
# says why): an engine module includes only its own floor or floors below,
# intrinsics appear only in engine/grundy/primitives/simd/, and oneTBB (tbb::)
# only in engine/grundy/primitives/. Prints each breach and exits 1 if any.
set -euo pipefail
cd "$(dirname "$0")/../.."
floor() {
  case "$1" in
    core) echo 0 ;; primitives) echo 1 ;; io) echo 2 ;; formats) echo 3 ;;
    solve) echo 4 ;; gen) echo 5 ;; jobs) echo 6 ;; dist|api) echo 7 ;; cli) echo 8 ;; *) echo 99 ;;
  esac
}
report=""
for file in $(find engine/grundy engine/cli \( -name '*.hpp' -o -name '*.cpp' \) | sort); do
  case "$file" in
    engine/cli/*) module=cli ;;
    engine/grundy/grundy.hpp) module=api ;;  # the public header: the api module's
    *) module=${file#engine/grundy/}; module=${module%%/*} ;;
  esac
  own=$(floor "$module")
  while IFS=: read -r line target; do
    [[ -z "$line" ]] && continue
    if (( $(floor "$target") > own )); then
      report+="$file:$line: $module (floor $own) includes grundy/$target/ (floor $(floor "$target"))"$'\n'
    fi
  done < <(grep -n '#include "grundy/' "$file" | sed -E -e 's|^([0-9]+):.*#include "grundy/grundy\.hpp".*|\1:api|' \
             -e 's|^([0-9]+):.*#include "grundy/([a-z_]+)/.*|\1:\2|' || true)
  if [[ "$file" != engine/grundy/primitives/simd/* ]]; then
    while IFS=: read -r line _; do
      [[ -n "$line" ]] && report+="$file:$line: intrinsics outside primitives/simd/"$'\n'
    done < <(grep -nE '#include <[a-z]*mmintrin\.h>|#include <immintrin\.h>|\b_mm(256|512)?_[a-z]' "$file" || true)
  fi
  if [[ "$file" != engine/grundy/primitives/* ]]; then
    while IFS=: read -r line _; do
      [[ -n "$line" ]] && report+="$file:$line: oneTBB outside primitives/"$'\n'
    done < <(grep -nE '\btbb::|#include <tbb/' "$file" || true)
  fi
done
if [[ -n "$report" ]]; then
  printf '%s' "$report" >&2
  echo "check_floors: $(printf '%s' "$report" | wc -l) breaches" >&2
  exit 1
fi
echo "check_floors: the floors hold, intrinsics only in primitives/simd/, tbb:: only in primitives/" >&2
