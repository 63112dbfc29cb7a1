#!/usr/bin/env bash
# Many small tensors through a fusion rule (issue 34): an offline model of OPS (2,000) fp16 NC1HWC0
# outputs of 1,024 elements against fp32 .npy goldens (-f), compared by several dumpcmp binaries
# (a change's before and after) side by side: the best wall time of RUNS (5) runs, the highest
# peak RSS, and the process's own baseline (the same compare of one op). The binaries' result
# CSVs must agree.
# Usage: bench/small_tensors.sh GEN WORK_DIR DUMPCMP...
set -euo pipefail
gen=$(realpath "$1") work=$2
shift 2
binaries=()
for b in "$@"; do binaries+=("$(realpath "$b")"); done
[ $# -ge 1 ] || { echo "usage: $0 GEN WORK_DIR DUMPCMP..." >&2; exit 2; }
mkdir -p "$work" && cd "$work"
ops=${OPS:-2000}
[ -d "many_$ops" ] || "$gen" --fusion --out "many_$ops" --ops "$ops" --max-elements 1024 > /dev/null
[ -d one ] || "$gen" --fusion --out one --ops 1 --max-elements 1024 > /dev/null
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
echo "input: $(du -sb "many_$ops/left" "many_$ops/right" | awk '{s += $1} END {printf "%.1f MB", s / 1e6}'), $ops ops"
measure() {  # measure CASE_DIR DUMPCMP OUT -> "best_seconds peak_kib"
  local best="" rss=0 s k
  for _ in $(seq "${RUNS:-5}"); do
    rm -rf "$3"
    /usr/bin/time -f "%e %M" -o time.txt "$2" compare -m "$1/left" -g "$1/right" \
      -f "$1/model.json" -out "$3" --device cpu --quiet > /dev/null 2>&1 || true
    read -r s k < time.txt
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
    [ "$k" -gt "$rss" ] && rss=$k
  done
  echo "$best $rss"
}
first=""
n=0
for dumpcmp in "${binaries[@]}"; do
  n=$((n + 1))
  read -r _ base_kib < <(RUNS=1 measure one "$dumpcmp" "one_out_$n")
  read -r s kib < <(measure "many_$ops" "$dumpcmp" "many_out_$n")
  printf '%s\n  %6.3f s  peak RSS %7.1f MB  (baseline %5.1f MB)\n' "$dumpcmp" "$s" \
    "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$(awk -v k="$base_kib" 'BEGIN { print k / 1024 }')"
  result=$(ls "many_out_$n"/result_*.csv)
  if [ -z "$first" ]; then
    first=$result
  elif cmp -s "$first" "$result"; then
    echo "  result CSV identical to the first binary's"
  else
    echo "  result CSV DIFFERS from the first binary's"
  fi
done
