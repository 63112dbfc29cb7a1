#!/usr/bin/env bash
# The GPU benchmark, one command: bench/gpu/run.sh BUILD_DIR [WORK_DIR]
# Generates (a) one 2 x 4 GiB fp32 pair, (b) 20,000 tensors of 4-64 KiB and (c) 8 fp16 NC1HWC0
# outputs against fp32 NCHW goldens (issue 15's fusion set, compared with -f), measures the floors
# (dumpcmp_gpu_floors: device copy, pinned H2D, file read) and the kernels alone, then times
# `dumpcmp compare --device cuda` end to end against `--device cpu` on the same data.
set -euo pipefail
build=$1 work=${2:-/tmp/dumpcmp_gpu_bench}
gen=$build/bench/dumpcmp_gen dumpcmp=$build/cli/dumpcmp floors=$build/bench/dumpcmp_gpu_floors
mkdir -p "$work"
# The cpu backend's figures depend on the SIMD target its kernels run.
"$dumpcmp" --version | grep '^SIMD'
[ -d "$work/a" ] || "$gen" --out "$work/a" --ops 1 --inputs 0 --min-elements 1073741824 --max-elements 1073741824 --dtypes float32 >/dev/null
[ -d "$work/b" ] || "$gen" --out "$work/b" --ops 10000 --inputs 1 --min-elements 1024 --max-elements 16384 --dtypes float32 >/dev/null
[ -d "$work/c" ] || "$gen" --fusion --out "$work/c" --ops 8 --max-elements 50331648 >/dev/null
echo "== floors and kernels"
"$floors" "$(ls "$work"/a/left/* | head -n 1)"
for c in a b c; do
  extra=()
  [ "$c" = c ] && extra=(-f "$work/c/model.json")
  bytes=$(du -sb "$work/$c/left" "$work/$c/right" | awk '{s+=$1} END {print s}')
  cat "$work/$c"/left/* "$work/$c"/right/* >/dev/null  # warm page cache: end to end excludes the disk
  for dev in cuda cpu; do
    rm -rf "$work/out_${c}_${dev}"
    start=$(date +%s.%N)
    "$dumpcmp" compare -m "$work/$c/left" -g "$work/$c/right" "${extra[@]}" -out "$work/out_${c}_$dev" --device $dev >/dev/null
    end=$(date +%s.%N)
    awk -v c=$c -v d=$dev -v b=$bytes -v s=$start -v e=$end 'BEGIN { printf "== case %s, %s: %.1f GB in %.3f s = %.2f GB/s end to end\n", c, d, b/1e9, e-s, b/1e9/(e-s) }'
  done
  cmp <(tail -n +2 "$work/out_${c}_cuda"/result_*.csv) <(tail -n +2 "$work/out_${c}_cpu"/result_*.csv) &&
    echo "   cuda and cpu result files are identical" || echo "   cuda and cpu result files DIFFER"
done
