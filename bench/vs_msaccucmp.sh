#!/usr/bin/env bash
# Side-by-side benchmark of dumpcmp and msaccucmp on the same generated data, same machine, one run.
# Usage: bench/vs_msaccucmp.sh BUILD_DIR "MSACCUCMP_COMMAND" [WORK_DIR]
#   MSACCUCMP_COMMAND runs msaccucmp's CLI, e.g. "/tmp/peer/run_new.sh" (see ../shared/peer.md; its code
#   is never part of this project). Reports input MB/s and peak RSS of both, and the ratios.
# Cases: (a) one 2 x 256 MiB float32 pair; (b) 2,000 tensors of at most 64 KiB; (c) an offline
# model through its fusion rule (-f): fp16 NC1HWC0 NPU outputs vs fp32 NCHW .npy goldens, 8 ops of
# 24 x 1448 x 1448 (about 1.2 GB in all; FUSION_ELEMENTS scales it).
# Each tool runs RUNS (3) times per case; the best time and the highest peak RSS are reported.
# (d) a whole run (docs/trees.md): 2 devices x TREE_STEPS (10) steps x TREE_OPS (2,000) small ops,
# NPU tree vs NPU tree: `dumpcmp compare --tree` against msaccucmp run leaf by leaf (its batch
# mode needs a fusion rule and compares one step), each leaf a separate copy of the files.
# CASES="a b c" (the default) picks the cases to run; add d for the tree.
set -euo pipefail
build=$1 peer=$2 work=${3:-$(mktemp -d)}
gen=$build/bench/dumpcmp_gen dumpcmp=$build/cli/dumpcmp
mkdir -p "$work"
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
"$dumpcmp" --version | grep '^SIMD'

measure() {  # measure NAME OUTDIR COMMAND... -> prints "seconds peak_kib", the best of 3 runs
  local name=$1 out=$2; shift 2
  local best="" rss=0
  for run in $(seq "${RUNS:-3}"); do
    rm -rf "$out"; mkdir -p "$out"
    sync
    /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" >"$work/$name.log" 2>&1 || true
    read -r s k < "$work/$name.time"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
    [ "$k" -gt "$rss" ] && rss=$k
  done
  echo "$best $rss"
}

run_case() {  # run_case LABEL DATA_DIR [extra compare arguments]
  local label=$1 data=$2; shift 2
  local bytes
  bytes=$(du -sb "$data/left" "$data/right" | awk '{s+=$1} END {print s}')
  # warm the page cache for both tools alike
  cat "$data"/left/* "$data"/right/* > /dev/null
  read -r d_s d_kib < <(measure "${label}_dumpcmp" "$work/${label}_out_dumpcmp" "$dumpcmp" compare -m "$data/left" -g "$data/right" -out "$work/${label}_out_dumpcmp" "$@")
  read -r p_s p_kib < <(measure "${label}_msaccucmp" "$work/${label}_out_msaccucmp" $peer compare -m "$data/left" -g "$data/right" -out "$work/${label}_out_msaccucmp" "$@")
  awk -v l="$label" -v b="$bytes" -v ds="$d_s" -v dk="$d_kib" -v ps="$p_s" -v pk="$p_kib" 'BEGIN {
    printf "%s: input %.1f MB\n", l, b/1e6;
    printf "  dumpcmp   %8.3f s %9.1f MB/s  peak RSS %8.1f MB\n", ds, b/1e6/ds, dk/1024;
    printf "  msaccucmp %8.3f s %9.1f MB/s  peak RSS %8.1f MB\n", ps, b/1e6/ps, pk/1024;
    printf "  speed-up %.1fx, RSS dumpcmp/input %.2f, msaccucmp/input %.2f\n", ps/ds, dk*1024/b, pk*1024/b;
  }'
}

cases=${CASES:-a b c}
want() { [[ " $cases " == *" $1 "* ]]; }

if want a && [ ! -d "$work/large" ]; then
  "$gen" --out "$work/large" --ops 1 --inputs 0 --min-elements 67108864 --max-elements 67108864 --dtypes float32 >/dev/null
fi
if want b && [ ! -d "$work/small" ]; then
  "$gen" --out "$work/small" --ops 1000 --inputs 1 --min-elements 16 --max-elements 16384 --dtypes float32 float16 >/dev/null
fi
if want a; then run_case "a_2x256MiB_fp32" "$work/large"; fi
if want b; then run_case "b_2000_small_tensors" "$work/small"; fi
if want d; then
  steps=${TREE_STEPS:-10} ops=${TREE_OPS:-2000}
  tree=$work/tree_${steps}x${ops}
  if [ ! -d "$tree" ]; then
    "$gen" --out "$tree/src" --ops "$ops" --inputs 1 --min-elements 16 --max-elements 4096 \
      --dtypes float32 float16 --noise 0.01 > /dev/null
    for dev in 0 1; do for s in $(seq 0 $((steps - 1))); do
      for side in npu:left gold:right; do
        d=$tree/${side%%:*}/2024010112000$dev/$dev/ge_default_2024010111595${dev}_1/1/$s
        mkdir -p "$d" && cp "$tree/src/${side#*:}"/* "$d"/
      done
    done; done
  fi
  bytes=$(du -sb "$tree/npu" "$tree/gold" | awk '{s+=$1} END {print s}')
  find "$tree/npu" "$tree/gold" -type f -exec cat {} + > /dev/null
  read -r d_s d_kib < <(measure d_dumpcmp "$work/d_out_dumpcmp" "$dumpcmp" compare --tree \
    -m "$tree/npu" -g "$tree/gold" -out "$work/d_out_dumpcmp")
  leaf_by_leaf() {  # msaccucmp on every leaf pair, one command each
    local leaf
    for leaf in $(cd "$tree/npu" && find . -mindepth 5 -maxdepth 5 -type d | sort); do
      $peer compare -m "$tree/npu/$leaf" -g "$tree/gold/$leaf" -out "$work/d_out_msaccucmp/$leaf" || true
    done
  }
  export -f leaf_by_leaf; export tree peer work
  read -r p_s p_kib < <(measure d_msaccucmp "$work/d_out_msaccucmp" bash -c leaf_by_leaf)
  awk -v b="$bytes" -v ds="$d_s" -v dk="$d_kib" -v ps="$p_s" -v pk="$p_kib" -v n=$((2 * steps)) 'BEGIN {
    printf "d_tree_%d_leaves: input %.1f MB\n", n, b/1e6;
    printf "  dumpcmp --tree      %8.3f s %9.1f MB/s  peak RSS %8.1f MB\n", ds, b/1e6/ds, dk/1024;
    printf "  msaccucmp per leaf  %8.3f s %9.1f MB/s  peak RSS %8.1f MB\n", ps, b/1e6/ps, pk/1024;
    printf "  speed-up %.1fx\n", ps/ds;
  }'
fi
want c || exit 0
fusion_elements=${FUSION_ELEMENTS:-50331648}
if [ ! -d "$work/fusion" ]; then
  "$gen" --fusion --out "$work/fusion" --ops 8 --max-elements "$fusion_elements" >/dev/null
fi
run_case "c_offline_model_nc1hwc0_fp16_vs_nchw_fp32" "$work/fusion" -f "$work/fusion/model.json"
# The result rows of both tools must agree (bench/diff_results.py).
python3 "$(dirname "$0")/diff_results.py" "$work"/c_*_out_dumpcmp/result_*.csv \
  "$work"/c_*_out_msaccucmp/result_*.csv | tail -n 1
