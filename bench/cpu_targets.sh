#!/usr/bin/env bash
# The CPU backend on every SIMD target this machine runs, against the floor of reading the same
# files from the page cache (issue 15's targets), in one run.
# Usage: bench/cpu_targets.sh BUILD_DIR [WORK_DIR]
# Cases: (a) one 2 x 256 MiB float32 pair, all ten metrics; (b) 2,000 ops of at most 64 KiB, NPU
# vs NPU (float32 and float16, an input and an output each: 4,000 rows); (c) 8 fp16 NC1HWC0 outputs against fp32 NCHW goldens through the
# fusion rule (-f; FUSION_ELEMENTS per op, default 50331648 as in vs_msaccucmp.sh).
# TARGETS="AVX3 AVX2" picks targets (default: every one this CPU runs); CASES="a b c" the cases.
# MSACCUCMP="/tmp/peer/run_new.sh" (../shared/peer.md) also times msaccucmp on (b), same data,
# same run, for the ratio issue 15 sets there.
# Each command runs RUNS (5) times; the best time and the highest peak RSS are reported. The
# result files of every target must be byte-identical: the script checks it and says so.
set -euo pipefail
build=$1 work=${2:-$(mktemp -d)}
gen=$build/bench/dumpcmp_gen dumpcmp=$build/cli/dumpcmp
mkdir -p "$work"

best_of() {  # best_of LOG COMMAND... -> "seconds peak_kib" (best time, highest RSS)
  local log=$1; shift
  local best="" rss=0 s k
  for _ in $(seq "${RUNS:-5}"); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$log" 2>&1 || true
    read -r s k < "$work/time"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
    [ "$k" -gt "$rss" ] && rss=$k
  done
  echo "$best $rss"
}

# The largest file of each side added up: what peak RSS is measured against (exact for (a) and
# (c), whose pairs are all the same size).
largest_pair() {
  local data=$1 side sum=0
  for side in left right; do
    sum=$((sum + $(find "$data/$side" -type f -printf '%s\n' | sort -n | tail -n 1)))
  done
  echo "$sum"
}

cases=${CASES:-a b c}
want() { [[ " $cases " == *" $1 "* ]]; }
if want a && [ ! -d "$work/a" ]; then
  "$gen" --out "$work/a" --ops 1 --inputs 0 --min-elements 67108864 --max-elements 67108864 \
    --dtypes float32 > /dev/null
fi
if want b && [ ! -d "$work/b" ]; then
  "$gen" --out "$work/b" --ops 2000 --inputs 1 --min-elements 16 --max-elements 16384 \
    --dtypes float32 float16 > /dev/null
fi
if want c && [ ! -d "$work/c" ]; then
  "$gen" --fusion --out "$work/c" --ops 8 --max-elements "${FUSION_ELEMENTS:-50331648}" > /dev/null
fi

targets=${TARGETS:-$("$dumpcmp" --version | sed -n 's/^SIMD: .* from \([^;]*\);.*/\1/p')}
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
"$dumpcmp" --version | grep '^SIMD'
for c in $cases; do
  data=$work/$c
  extra=()
  [ "$c" = c ] && extra=(-f "$data/model.json")
  bytes=$(du -sb "$data/left" "$data/right" | awk '{s+=$1} END {print s}')
  pair=$(largest_pair "$data")
  read -r floor _ < <(best_of "$work/cat.log" sh -c "cat '$data'/left/* '$data'/right/* > /dev/null")
  awk -v c="$c" -v b="$bytes" -v p="$pair" -v f="$floor" \
    'BEGIN { printf "(%s) %.1f MB, largest pair %.1f MB: read floor (cat) %.3f s\n", c, b/1e6, p/1e6, f }'
  reference="" fastest=""
  for t in $targets; do
    out=$work/out_${c}_$t
    chosen=$(DUMPCMP_SIMD=$t "$dumpcmp" --version | sed -n 's/^SIMD: \([^ ]*\).*/\1/p')
    [ "$chosen" = "$t" ] || { echo "  $t: not run by this CPU (dispatch gives $chosen)"; continue; }
    read -r s kib < <(DUMPCMP_SIMD=$t best_of "$work/${c}_$t.log" bash -c \
      'rm -rf "$0" && "$1" compare -m "$2/left" -g "$2/right" -out "$0" "${@:3}"' \
      "$out" "$dumpcmp" "$data" "${extra[@]}")
    same=""
    if [ -z "$reference" ]; then reference=$out; else
      if cmp -s <(cat "$reference"/result_*.csv) <(cat "$out"/result_*.csv); then
        same=", result CSV identical to $(basename "$reference" | sed 's/.*_//')'s"
      else
        same=", RESULT CSV DIFFERS from $(basename "$reference" | sed 's/.*_//')'s"
      fi
    fi
    awk -v t="$t" -v s="$s" -v f="$floor" -v k="$kib" -v p="$pair" -v same="$same" 'BEGIN {
      printf "  %-6s %7.3f s = %5.2f x the read floor, peak RSS %.2f x the largest pair%s\n",
        t, s, s/f, k*1024/p, same }'
    fastest=$(awk -v a="$s" -v b="${fastest:-$s}" 'BEGIN { print (a < b ? a : b) }')
  done
  if [ "$c" = b ] && [ -n "${MSACCUCMP:-}" ]; then
    read -r s _ < <(best_of "$work/b_msaccucmp.log" bash -c \
      'rm -rf "$0" && $1 compare -m "$2/left" -g "$2/right" -out "$0"' \
      "$work/out_b_msaccucmp" "$MSACCUCMP" "$data")
    awk -v s="$s" -v f="$fastest" 'BEGIN {
      printf "  msaccucmp %.3f s: %.0f x the fastest target above\n", s, s/f }'
  fi
done
