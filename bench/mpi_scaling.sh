#!/usr/bin/env bash
# Strong scaling over MPI ranks on one host (docs/scale-out.md): one generated dump tree of
# DEVICES (4) x STEPS (4) leaves of OPS (24) float32 ops of up to ELEMENTS (1,048,576) elements,
# compared with `compare --tree` by one process and by mpirun -np 1, 2 and 4, each rank with
# THREADS (1) OpenMP threads, warm page cache, the best of RUNS (3). Beside it, in the same run:
# the read floor (`cat` of every file) and the bytes moved between ranks (rank 0's count).
# Then one pair of PAIR_ELEMENTS (67,108,864: 2 x 256 MiB) float32 elements, one process against
# 2 ranks, where the tensor is cut between the ranks (docs/scale-out.md).
# Usage: bench/mpi_scaling.sh BUILD_DIR [WORK_DIR]
set -euo pipefail
build=$(cd "$1" && pwd) work=${2:-$(mktemp -d)}
gen=$build/bench/dumpcmp_gen dumpcmp=$build/cli/dumpcmp
devices=${DEVICES:-4} steps=${STEPS:-4} ops=${OPS:-24} elements=${ELEMENTS:-1048576}
threads=${THREADS:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$work"
cd "$work"
if [ ! -d npu ]; then
  for s in $(seq 0 $((steps - 1))); do
    "$gen" --out "src$s" --ops "$ops" --inputs 1 --min-elements $((elements / 4)) \
      --max-elements "$elements" --dtypes float32 --seed "$s" --noise 0.01 > /dev/null
    for d in $(seq 0 $((devices - 1))); do
      mkdir -p "npu/20240101120000/$d/net_1/1/$s" "gold/20240101120000/$d/net_1/1/$s"
      cp "src$s"/left/* "npu/20240101120000/$d/net_1/1/$s/"
      cp "src$s"/right/* "gold/20240101120000/$d/net_1/1/$s/"
    done
    rm -rf "src$s"
  done
fi
bytes=$(du -sb npu gold | awk '{s+=$1} END {print s}')
best() {  # best NAME COMMAND... -> seconds (best of RUNS); the last run's output in NAME.log
  local name=$1 b=""
  shift
  for _ in $(seq "${RUNS:-3}"); do
    rm -rf "out_$name"
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > "$name.log" 2>&1
    t1=$(date +%s.%N)
    local s
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    if [ -z "$b" ] || awk -v a="$s" -v c="$b" 'BEGIN { exit !(a < c) }'; then b=$s; fi
  done
  echo "$b"
}
find npu gold -type f -exec cat {} + > /dev/null  # warm the page cache
floor=$(best floor sh -c 'find npu gold -type f -exec cat {} + > /dev/null')
one=$(best one "$dumpcmp" compare --tree -m npu -g gold -out out_one --device cpu -j "$threads")
printf 'tree: %d leaves, %.1f MB; cpu: %s; %s\n' $((devices * steps)) \
  "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
  "$("$dumpcmp" --version | grep -E '^(SIMD|scale-out)' | tr '\n' ' ')"
printf '%-22s %8s %10s %12s %14s\n' run seconds MB/s vs_1_proc bytes_between
printf '%-22s %8s %10.0f %12s %14s\n' "read floor (cat)" "$floor" \
  "$(awk -v b="$bytes" -v s="$floor" 'BEGIN { print b / 1e6 / s }')" "" ""
printf '%-22s %8s %10.0f %12s %14s\n' "1 process, -j $threads" "$one" \
  "$(awk -v b="$bytes" -v s="$one" 'BEGIN { print b / 1e6 / s }')" "1.00" "0"
all=$(best all "$dumpcmp" compare --tree -m npu -g gold -out out_all --device cpu)
printf '%-22s %8s %10.0f %12.2f %14s\n' "1 process, all cores" "$all" \
  "$(awk -v b="$bytes" -v s="$all" 'BEGIN { print b / 1e6 / s }')" \
  "$(awk -v a="$one" -v t="$all" 'BEGIN { print a / t }')" "0"
for n in 1 2 4; do
  s=$(best "np$n" mpirun --oversubscribe --bind-to none -np "$n" "$dumpcmp" compare --tree -m npu \
    -g gold -out "out_np$n" --device cpu -j "$threads")
  moved=$(grep -o '([0-9]* bytes between ranks)' "np$n.log" | grep -o '[0-9]*' || echo 0)
  printf '%-22s %8s %10.0f %12.2f %14s\n' "mpirun -np $n" "$s" \
    "$(awk -v b="$bytes" -v t="$s" 'BEGIN { print b / 1e6 / t }')" \
    "$(awk -v a="$one" -v t="$s" 'BEGIN { print a / t }')" "$moved"
done
start=$(best start mpirun --oversubscribe --bind-to none -np 2 "$dumpcmp" --version)
echo "mpirun -np 2 start and end alone (dumpcmp --version): $start s"
rows=$(grep -o '[0-9]* rows' np2.log | awk '{s+=$1} END {print s}')
echo "rows: $rows (the records of every leaf travel; tensors never do)"

# --- One large pair: the tensor is split between the ranks.
pair_elements=${PAIR_ELEMENTS:-67108864}
if [ ! -d pair ]; then
  "$gen" --out pair --ops 1 --inputs 0 --min-elements "$pair_elements" --max-elements "$pair_elements" \
    --dtypes float32 --seed 9 --noise 0.01 > /dev/null
fi
cat pair/left/* pair/right/* > /dev/null
pbytes=$(du -sb pair/left pair/right | awk '{s+=$1} END {print s}')
pfloor=$(best pfloor sh -c 'cat pair/left/* pair/right/* > /dev/null')
pone=$(best pone "$dumpcmp" compare -m pair/left -g pair/right -out out_pone --device cpu -j "$threads")
pnp2=$(best pnp2 mpirun --oversubscribe --bind-to none -np 2 "$dumpcmp" compare -m pair/left \
  -g pair/right -out out_pnp2 --device cpu -j "$threads")
cmp out_pone/result_*.csv out_pnp2/result_*.csv > /dev/null && same=identical || same=DIFFERENT
printf 'one pair, %.0f MB: read floor %s s, 1 process -j %s %s s, mpirun -np 2 %s s (%s; %s)\n' \
  "$(awk -v b="$pbytes" 'BEGIN { print b / 1e6 }')" "$pfloor" "$threads" "$pone" "$pnp2" \
  "$(grep -o '[0-9]* tensors split between ranks' pnp2.log)" "result files $same"
