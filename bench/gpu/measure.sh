#!/usr/bin/env bash
# Everything a GPU host must measure, in one run of about 8 minutes, from builds packed beforehand
# on a machine without a GPU (bench/gpu/pack.sh BUILD DEST):
#   bash bench/gpu/measure.sh NEW_DEST OLD_DEST OUT_DIR
# Steps, each capped in time, the later ones skipped once the budget (MEASURE_BUDGET_S, 450 s) is
# spent: the host and device; tensors already on the device (resident_bench.py); the data ((a)
# 2 x 4 GiB fp32, (b) 20,000 tensors of 4-64 KiB, (c) 8 fp16 NC1HWC0 outputs against fp32 NCHW
# goldens through -f, and a tiny golden case); end to end from the page cache, interleaved, three
# repetitions: cpu, old cuda, new cuda, new and old auto, every result file compared with the cpu
# run's; the tiny compare x5; --quantiles; 4 cores; phase traces (DUMPCMP_TRACE=1); the Python
# tests on CUDA tensors and the live compare (and its overhead); the parity suite and device_parity.sh on cuda; msprobe's tensor mode on
# cuda (files equal to the cpu's); the floors;
# compute-sanitizer memcheck and racecheck; ncu on the lift and quantile counting kernels; last,
# the shared-memory tile lifts (DUMPCMP_LANE_TILES=1, an experiment) the same ways. Logs go to
# OUT_DIR/measure.log, timings to OUT_DIR/times.tsv, a table of medians is printed last.
# A shorter rerun: MEASURE_ONLY (an extended regular expression over the step names) and
# MEASURE_CASES (the end-to-end cases, "a b c").
set -uo pipefail
new=$1 old=$2 out=$3
budget=${MEASURE_BUDGET_S:-450}
work=${MEASURE_WORK:-/tmp/dumpcmp_measure}
repo=$(pwd)
mkdir -p "$out" "$work"
export LD_LIBRARY_PATH="$new/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
log=$out/measure.log times=$out/times.tsv
: >"$times"
exec > >(tee -a "$log") 2>&1
t0=$(date +%s)
left() { echo $((budget - ($(date +%s) - t0))); }
step() {  # step NAME CAP_S COMMAND...: runs it under `timeout`, unless the budget is spent
  local name=$1 cap=$2
  shift 2
  if [ -n "${MEASURE_ONLY:-}" ] && ! grep -qE "$MEASURE_ONLY" <<<"$name"; then
    return 0
  fi
  if [ "$(left)" -le 5 ]; then
    echo "== $name: SKIPPED (budget spent)"
    return 1
  fi
  [ "$cap" -gt "$(left)" ] && cap=$(left)
  echo "== $name (cap ${cap} s, $(left) s left)"
  timeout --kill-after=5 "$cap" "$@"
  local rc=$?
  [ $rc -ne 0 ] && echo "== $name: exit $rc"
  return $rc
}
dumpcmp_new=$new/build/cli/dumpcmp dumpcmp_old=$old/build/cli/dumpcmp gen=$new/build/bench/dumpcmp_gen

echo "== host and device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
lscpu | grep -E '^(Model name|CPU\(s\)|Flags)' | cut -c1-200
"$dumpcmp_new" --version
python3 -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__)'

step "tensors on the device (resident_bench.py)" 110 env PYTHONPATH="$new/python" \
  python3 "$repo/bench/gpu/resident_bench.py" "$out/resident.json"

# Smaller data for a dry run on a machine without a GPU: MEASURE_A_ELEMENTS, MEASURE_B_OPS,
# MEASURE_C_ELEMENTS.
a_elements=${MEASURE_A_ELEMENTS:-1073741824} b_ops=${MEASURE_B_OPS:-10000}
c_elements=${MEASURE_C_ELEMENTS:-50331648}
gen_data() {
  [ -d "$work/a" ] || [[ " $cases " != *" a "* ]] || "$gen" --out "$work/a" --ops 1 --inputs 0 --min-elements "$a_elements" \
    --max-elements "$a_elements" --dtypes float32 >/dev/null
  [ -d "$work/b" ] || [[ " $cases " != *" b "* ]] || "$gen" --out "$work/b" --ops "$b_ops" --inputs 1 --min-elements 1024 \
    --max-elements 16384 --dtypes float32 >/dev/null
  [ -d "$work/c" ] || [[ " $cases " != *" c "* ]] || "$gen" --fusion --out "$work/c" --ops 8 --max-elements "$c_elements" >/dev/null
  for c in $cases; do cat "$work/$c"/*/* >/dev/null; done  # warm: end to end excludes the disk
}
export -f gen_data
cases=${MEASURE_CASES:-a b c}
export work gen a_elements b_ops c_elements cases
step "data" 150 bash -c gen_data

tiny_m=$repo/tests/data/msaccucmp/mixed/left tiny_g=$repo/tests/data/msaccucmp/mixed/right
# run CASE LABEL BINARY DEVICE [EXTRA...]: one timed compare; its time goes to times.tsv.
run() {
  local c=$1 label=$2 bin=$3 dev=$4
  shift 4
  local m=$work/$c/left g=$work/$c/right extra=("$@")
  [ "$c" = c ] && extra+=(-f "$work/c/model.json")
  [ "$c" = tiny ] && m=$tiny_m g=$tiny_g
  local o=$work/out_${c}_${label}
  rm -rf "$o"
  local s e
  s=$(date +%s.%N)
  "$bin" compare -m "$m" -g "$g" "${extra[@]}" -out "$o" --device "$dev" >"$o.stdout" 2>"$o.stderr"
  local rc=$?
  e=$(date +%s.%N)
  awk -v c="$c" -v l="$label" -v s="$s" -v e="$e" -v rc=$rc \
    'BEGIN { printf "%s\t%s\t%.4f\t%d\n", c, l, e - s, rc }' >>"$times"
  grep -h "device auto chose" "$o.stderr" | head -1
}
same_as() {  # same_as CASE LABEL REFERENCE: the result file equals the reference run's (the
  # header may differ: it names the run), and both runs wrote one
  local a=("$work/out_$1_$2"/result_*.csv) b=("$work/out_$1_$3"/result_*.csv)
  [ -f "${a[0]}" ] && [ -f "${b[0]}" ] || return 1
  cmp -s "${a[0]}" "${b[0]}" || cmp -s <(tail -n +2 "${a[0]}") <(tail -n +2 "${b[0]}")
}
same_as_cpu() { same_as "$1" "$2" cpu; }

end_to_end() {
  for rep in 1 2 3; do
    for c in $cases; do
      run $c cpu "$dumpcmp_new" cpu
      run $c cuda_old "$dumpcmp_old" cuda
      run $c cuda "$dumpcmp_new" cuda
      run $c auto "$dumpcmp_new" auto
      run $c auto_old "$dumpcmp_old" auto
    done
  done
  for c in $cases; do
    for l in cuda_old cuda auto auto_old; do
      same_as_cpu $c $l && echo "   $c $l: result file identical to cpu" || echo "   $c $l: result file DIFFERS from cpu"
    done
  done
}
# `run` takes the binary as one word: the taskset runs go through a wrapper.
taskset_wrap=$work/taskset_dumpcmp
printf '#!/bin/sh\nexec taskset -c 0-3 %s "$@"\n' "$dumpcmp_new" >"$taskset_wrap"
chmod +x "$taskset_wrap"
quantiles() {
  for rep in 1 2; do
    for c in a c; do
      run $c q_cpu "$dumpcmp_new" cpu --quantiles
      run $c q_cuda_old "$dumpcmp_old" cuda --quantiles
      run $c q_cuda "$dumpcmp_new" cuda --quantiles
      run $c q_auto "$dumpcmp_new" auto --quantiles
    done
  done
  for c in a c; do
    same_as $c q_cuda q_cpu &&
      echo "   $c --quantiles: cuda and cpu identical" || echo "   $c --quantiles: cuda and cpu DIFFER"
  done
}
four_cores() {
  for rep in 1 2; do
    run a j4_cpu "$taskset_wrap" cpu -j 4
    run a j4_cuda "$taskset_wrap" cuda -j 4
    run a j4_auto "$taskset_wrap" auto -j 4
  done
}
tiny() {
  for rep in 1 2 3 4 5; do
    run tiny cpu "$dumpcmp_new" cpu
    run tiny cuda "$dumpcmp_new" cuda
    run tiny auto "$dumpcmp_new" auto
    run tiny auto_old "$dumpcmp_old" auto
  done
}
export -f run same_as same_as_cpu end_to_end quantiles four_cores tiny
cases=${MEASURE_CASES:-a b c}
export work times tiny_m tiny_g dumpcmp_new dumpcmp_old taskset_wrap cases
step "end to end: a, b, c x (cpu, old cuda, cuda, auto, old auto) x 3" 150 bash -c end_to_end
step "tiny compare x 5" 30 bash -c tiny
step "--quantiles" 40 bash -c quantiles
step "4 cores" 30 bash -c four_cores

traces() {
  for c in tiny $cases; do
    for dev in cuda cpu; do
      echo "-- $c, $dev"
      DUMPCMP_TRACE=1 run $c trace_$dev "$dumpcmp_new" $dev
      grep "trace:" "$work/out_${c}_trace_$dev.stderr"
    done
  done
}
export -f traces
step "phase traces (DUMPCMP_TRACE=1)" 40 bash -c traces
step "python: CUDA tensors (tests/python/test_resident.py -k cuda)" 60 env PYTHONPATH="$new/python" \
  python3 -m pytest -q -p no:cacheprovider "$repo/tests/python/test_resident.py" -k cuda
step "python: a CUDA run compared as it runs (tests/python/test_live.py)" 60 env \
  PYTHONPATH="$new/python" DUMPCMP_ROOT="$repo" python3 -m pytest -q -p no:cacheprovider \
  "$repo/tests/python/test_live.py"
step "live compare overhead (bench/live/live_overhead.py)" 60 env PYTHONPATH="$new/python" \
  python3 "$repo/bench/live/live_overhead.py" cuda "$work/live" "$dumpcmp_new"
step "parity suite (cuda)" 90 "$new/build/tests/parity/test_parity_cuda"
step "device_parity.sh cuda" 60 bash "$repo/tests/cli/device_parity.sh" "$dumpcmp_new" "$gen" cuda
probe_tensors() {  # msprobe's tensor mode: the cpu's files written by the cuda backend too, timed
  local cases="$repo/tests/data/msprobe_dump/tensor_cases" c d
  for c in tensor tensor_ranks tensor_mindspore; do
    for d in cpu cuda; do
      rm -rf "$work/probe_$d" && /usr/bin/time -f "probe $c $d %e s" "$dumpcmp_new" compare \
        -tp "$cases/$c/npu" -gp "$cases/$c/bench" -o "$work/probe_$d" --device "$d" >/dev/null || return 1
    done
    for f in "$work"/probe_cpu/compare_result_*.csv; do
      cmp <(tail -n +2 "$f") <(tail -n +2 "$work/probe_cuda/$(basename "${f%_*}")"_*.csv) ||
        { echo "FAIL: probe $c differs between cpu and cuda"; return 1; }
    done
  done
}
export -f probe_tensors
export repo
step "msprobe tensor mode: cpu and cuda files" 30 bash -c probe_tensors
step "floors" 40 "$new/build/bench/dumpcmp_gpu_floors" "$(ls "$work"/a/left/* | head -n 1)"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
step "memcheck: resident and 300 KiB-budget parity" 60 "$sanitizer" --tool memcheck \
  --leak-check full --error-exitcode 9 "$new/build/tests/parity/test_parity_cuda" \
  --gtest_filter='Resident*.*:*JobsWithLayoutMaps/1:ProbeParity.*:*QuantileParity.*/1'
step "racecheck: quantile counting (shared-memory pass 1)" 40 "$sanitizer" --tool racecheck \
  --error-exitcode 9 "$new/build/tests/parity/test_parity_cuda" \
  --gtest_filter='*QuantileParity.JobsWithLayoutMaps/0'
step "racecheck: layouts golden case through -f" 40 "$sanitizer" --tool racecheck \
  --error-exitcode 9 "$dumpcmp_new" compare -m "$repo/tests/data/msaccucmp_fusion/layouts/left" \
  -g "$repo/tests/data/msaccucmp_fusion/layouts/right" \
  -f "$repo/tests/data/msaccucmp_fusion/layouts/model.json" -out "$work/out_race" --device cuda
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
step "ncu: the lift kernels on (a)'s file" 60 "$ncu_bin" --kernel-name regex:'lift_(pair|kld)_lanes' \
  --launch-count 4 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
  --section LaunchStats "$new/build/bench/dumpcmp_gpu_floors" "$(ls "$work"/a/left/* | head -n 1)" \
  >"$out/ncu.txt" 2>&1
grep -E "lift_|DRAM Throughput|Memory Throughput|Compute \(SM\)|Duration|Achieved Occupancy|Registers Per" "$out/ncu.txt" | head -60
step "ncu: the quantile counting kernels on (c) with --quantiles" 60 "$ncu_bin" \
  --kernel-name regex:'count_(top|low)_keys' --launch-count 2 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section Occupancy "$dumpcmp_new" compare -m "$work/c/left" \
  -g "$work/c/right" -f "$work/c/model.json" -out "$work/out_ncu_q" --quantiles --device cuda \
  >"$out/ncu_quantiles.txt" 2>&1
grep -E "count_|DRAM Throughput|Memory Throughput|Compute \(SM\)|Duration|Achieved Occupancy" \
  "$out/ncu_quantiles.txt" | head -30

# The shared-memory tile lifts (DUMPCMP_LANE_TILES=1, kernels/lane_tiles.cuh), an experiment:
# parity and racecheck under them, the kernels alone, ncu, and (a), (c) end to end beside plain
# cuda, the result files compared with the cpu's. Last, so the budget spends itself on the rest
# first.
tiles_wrap=$work/tiles_dumpcmp
printf '#!/bin/sh\nDUMPCMP_LANE_TILES=1 exec %s "$@"\n' "$dumpcmp_new" >"$tiles_wrap"
chmod +x "$tiles_wrap"
lane_tiles() {
  for rep in 1 2; do
    for c in a c; do
      run $c cuda_b "$dumpcmp_new" cuda
      run $c cuda_tiles "$tiles_wrap" cuda
    done
  done
  for c in a c; do
    same_as_cpu $c cuda_tiles && echo "   $c cuda_tiles: result file identical to cpu" ||
      echo "   $c cuda_tiles: result file DIFFERS from cpu"
  done
}
export -f lane_tiles
export tiles_wrap
step "lane tiles: parity suite (cuda)" 60 env DUMPCMP_LANE_TILES=1 \
  "$new/build/tests/parity/test_parity_cuda" --gtest_filter='Resident.*:Budgets/Parity.*'
step "lane tiles: the kernels alone" 20 env DUMPCMP_LANE_TILES=1 "$new/build/bench/dumpcmp_gpu_floors"
step "lane tiles: (a), (c) end to end beside cuda" 40 bash -c lane_tiles
step "lane tiles: racecheck" 40 env DUMPCMP_LANE_TILES=1 "$sanitizer" --tool racecheck \
  --error-exitcode 9 "$new/build/tests/parity/test_parity_cuda" --gtest_filter='Resident.Misaligned*'
step "lane tiles: ncu" 60 env DUMPCMP_LANE_TILES=1 "$ncu_bin" --kernel-name \
  regex:'lift_(pair|kld)_tiles' --launch-count 4 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section Occupancy "$new/build/bench/dumpcmp_gpu_floors" \
  >"$out/ncu_tiles.txt" 2>&1
grep -E "lift_|DRAM Throughput|Memory Throughput|Compute \(SM\)|Duration|Achieved Occupancy" \
  "$out/ncu_tiles.txt" | head -30

echo "== medians (s) of times.tsv: case, label, median, min, max, runs, failed runs"
python3 - "$times" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
failed = collections.Counter()
for line in open(sys.argv[1]):
    case, label, seconds, rc = line.rstrip("\n").split("\t")
    runs[case, label].append(float(seconds))
    failed[case, label] += rc != "0"
for (case, label), t in sorted(runs.items()):
    print("%-5s %-9s %8.3f %8.3f %8.3f %3d %3d" % (case, label, statistics.median(t), min(t), max(t),
                                                 len(t), failed[case, label]))
PY
echo "== done in $(( $(date +%s) - t0 )) s"
