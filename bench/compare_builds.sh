#!/usr/bin/env bash
# Several dumpcmp binaries (a change's before and after) side by side on issue 15's cases, per SIMD
# target, against the read floor measured in the same run: the way to tell a change's effect on a
# machine whose speed varies from run to run.
# Usage: bench/compare_builds.sh WORK_DIR DUMPCMP...
# WORK_DIR holds the cases as bench/cpu_targets.sh makes them (a/, b/, c/). CASES="a c" (default)
# picks cases, TARGETS="AVX3 AVX2" (default) targets, RUNS (7) the runs whose best time counts.
# The binaries' result CSVs must agree: the script checks each against the first and says so.
set -euo pipefail
work=$1
shift
[ $# -ge 1 ] || { echo "usage: $0 WORK_DIR DUMPCMP..." >&2; exit 2; }

best_seconds() {  # best_seconds COMMAND... -> the best wall time of RUNS runs, in seconds
  local best="" start end s
  for _ in $(seq "${RUNS:-7}"); do
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    s=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
  done
  echo "$best"
}

for c in ${CASES:-a c}; do
  data=$work/$c
  [ -d "$data/left" ] || { echo "$data: no case here (make it with bench/cpu_targets.sh)" >&2; exit 2; }
  extra=()
  [ -f "$data/model.json" ] && extra=(-f "$data/model.json")
  floor=$(best_seconds sh -c "cat '$data'/left/* '$data'/right/* > /dev/null")
  echo "($c) read floor (cat) $floor s"
  for t in ${TARGETS:-AVX3 AVX2}; do
    reference=""
    for bin in "$@"; do
      out=$work/builds_out_${c}
      s=$(DUMPCMP_SIMD=$t best_seconds bash -c \
        'rm -rf "$0" && "$1" compare -m "$2/left" -g "$2/right" -out "$0" "${@:3}"' \
        "$out" "$bin" "$data" "${extra[@]}")
      same=""
      if [ -z "$reference" ]; then
        reference=$work/builds_reference.csv
        cat "$out"/result_*.csv > "$reference"
      elif cmp -s "$reference" <(cat "$out"/result_*.csv); then
        same=", result CSV identical to the first binary's"
      else
        same=", RESULT CSV DIFFERS from the first binary's"
      fi
      awk -v t="$t" -v b="$bin" -v s="$s" -v f="$floor" -v same="$same" \
        'BEGIN { printf "  %-5s %-40s %.3f s = %.2f x the read floor%s\n", t, b, s, s / f, same }'
    done
  done
done
