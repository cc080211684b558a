#!/usr/bin/env bash
# Interleaved A/B of grundy binaries, for changes whose effect is smaller
# than this machine's drift: each repetition runs every binary once, in
# turn, on the same file, and the table gives each binary's min and median.
#   tools/measure/ab_phases.sh FILE THREADS REPS BINARY...
#     the layering and mex phases (`grundy solve --stats`), in ms;
#   tools/measure/ab_phases.sh --wall FILE THREADS REPS BINARY...
#     whole `grundy solve` processes, no report asked for, wall ms (for what
#     --stats cannot show: the cost of what runs without it).
set -euo pipefail
wall=0
if [[ "${1:-}" == "--wall" ]]; then wall=1; shift; fi
file=${1:?usage: tools/measure/ab_phases.sh [--wall] FILE THREADS REPS BINARY...}
threads=${2:?}
reps=${3:?}
shift 3
for ((r = 0; r < reps; ++r)); do
  for bin in "$@"; do
    if ((wall)); then
      start=$(date +%s%N)
      "$bin" solve --threads "$threads" "$file" >/dev/null
      echo "$bin $((($(date +%s%N) - start) / 1000000)) 0"
    else
      "$bin" solve --stats --threads "$threads" "$file" 2>&1 >/dev/null |
        awk -v b="$bin" '($2 == "layering" || $2 == "mex") && $4 == "ms" {t[$2] = $3} END {print b, t["layering"] + 0, t["mex"] + 0}'
    fi
  done
done | awk -v f="$(basename "$file")" -v t="$threads" -v wall="$wall" '
  function stat(list,   n, a, i, j, x) {  # "min / median" of a space-separated list
    n = split(list, a, " ")
    for (i = 2; i <= n; ++i) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; --j) a[j + 1] = a[j]; a[j + 1] = x }
    return sprintf("%.0f / %.0f", a[1], a[int((n + 1) / 2)])
  }
  { if (!($1 in L)) order[++k] = $1; L[$1] = L[$1] " " $2; M[$1] = M[$1] " " $3; S[$1] = S[$1] " " $2 + $3 }
  END {
    if (wall) {
      printf "| %s, %s threads | wall min / median |\n| --- | --- |\n", f, t
      for (i = 1; i <= k; ++i) printf "| %s | %s |\n", order[i], stat(L[order[i]])
    } else {
      printf "| %s, %s threads | layering min / median | mex min / median | both min / median |\n| --- | --- | --- | --- |\n", f, t
      for (i = 1; i <= k; ++i) printf "| %s | %s | %s | %s |\n", order[i], stat(L[order[i]]), stat(M[order[i]]), stat(S[order[i]])
    }
  }'
