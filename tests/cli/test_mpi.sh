#!/usr/bin/env bash
# Runs over MPI ranks (docs/scale-out.md): mpirun -np 1..4 over loopback must write the result
# files of the one-process run, byte for byte: a network compare (with NaN/inf and one-sided ops),
# the fusion-rule path, a case where one tensor is most of the bytes, whole trees dealt by bytes
# and by device, and --resume with another rank count after one rank is killed.
# Skipped (77) when dumpcmp was built without MPI or mpirun is absent.
set -euo pipefail
dumpcmp=$1 gen=$2
"$dumpcmp" --version | grep "^scale-out: MPI" > /dev/null || { echo "SKIP: dumpcmp built without MPI"; exit 77; }
command -v mpirun > /dev/null || { echo "SKIP: no mpirun"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
# Under ASan, Open MPI's own allocations kept until exit are not ours to report: full stacks (its
# libraries have no frame pointers) and its plugins kept loaded, so that the suppressions match.
export LSAN_OPTIONS="suppressions=$here/lsan_mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export OMPI_MCA_mca_base_component_disable_dlclose=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
run() {  # ranks, dumpcmp arguments...
  local n=$1
  shift
  mpirun --oversubscribe --bind-to none -np "$n" "$dumpcmp" "$@"
}

# --- One compare: rows dealt in byte-balanced shares, rank 0 writes them in row order.
"$gen" --out net --ops 120 --specials --seed 7 --noise 0.001 > /dev/null
"$dumpcmp" compare -m net/left -g net/right -out one --device cpu --quiet
for n in 1 2 3 4; do
  run "$n" compare -m net/left -g net/right -out "np$n" --device cpu --quiet
  cmp one/result_*.csv "np$n"/result_*.csv || fail "network compare on $n ranks differs"
done
run 3 compare -m net/left -g net/right -out summary3 --device cpu > summary3.out
grep -q "^dumpcmp: compared .* ops, .* rows" summary3.out || fail "rank 0's summary: $(cat summary3.out)"
echo "network compare: 1-4 ranks equal to one process"
set +e
run 2 compare -m missing -g net/right -out bad --device cpu > bad.out 2>&1
code=$?
set -e
[ "$code" = 2 ] || fail "a missing input on 2 ranks: exit $code"
grep -q "dumpcmp: error: rank 0 (.*): missing: no such dump file" bad.out || fail "$(cat bad.out)"
echo "a bad input ends every rank: exit 2, the file named"

# --- The fusion-rule path (NC1HWC0 fp16 against NCHW fp32 .npy through -f).
"$gen" --out fus --fusion --ops 6 --max-elements 4096 > /dev/null
"$dumpcmp" compare -m fus/left -g fus/right -f fus/model.json -out fone --device cpu --quiet
run 3 compare -m fus/left -g fus/right -f fus/model.json -out fnp3 --device cpu --quiet
cmp fone/result_*.csv fnp3/result_*.csv || fail "fusion compare on 3 ranks differs"
echo "fusion-rule compare: 3 ranks equal to one process"

# --- One tensor is most of the bytes: its share is the tensor alone, the rest spread.
"$gen" --out big --ops 1 --inputs 0 --min-elements 4194304 --max-elements 4194304 \
  --dtypes float32 --seed 3 --noise 0.01 > /dev/null
"$gen" --out small --ops 40 --seed 4 --noise 0.01 > /dev/null
mkdir -p dom/left dom/right
for side in left right; do
  cp small/$side/* dom/$side/
  for f in big/$side/*; do  # the big op keeps its data under another op name, dumped last
    cp "$f" "dom/$side/$(basename "$f" | sed 's/^\([^.]*\)\.layer0\./\1.big0./; s/[0-9]\{4\}$/9999/')"
  done
done
"$dumpcmp" compare -m dom/left -g dom/right -out done1 --device cpu --quiet
for n in 2 4; do
  run "$n" compare -m dom/left -g dom/right -out "dnp$n" --device cpu > "dnp$n.out"
  grep -q ", 1 tensors split between ranks" "dnp$n.out" || fail "the big tensor was not split: $(cat "dnp$n.out")"
  cmp done1/result_*.csv "dnp$n"/result_*.csv || fail "dominant tensor on $n ranks differs"
done
# --quantiles: a split tensor's distributions come from the whole tensor on rank 0.
"$dumpcmp" compare -m dom/left -g dom/right -out dq1 --device cpu --quiet --quantiles
run 3 compare -m dom/left -g dom/right -out dq3 --device cpu --quiet --quantiles
cmp dq1/result_*.csv dq3/result_*.csv || fail "--quantiles on 3 ranks differs"
"$dumpcmp" compare -m dom/left -g dom/right -out dthrust1 --device thrust-omp --quiet
run 3 compare -m dom/left -g dom/right -out dthrust3 --device thrust-omp --quiet
cmp dthrust1/result_*.csv dthrust3/result_*.csv || fail "dominant tensor on 3 ranks, thrust-omp, differs"
# Several large tensors of three dtypes, one with NaN (no KLD pass): each split on 5 ranks.
"$gen" --out sp --ops 3 --inputs 1 --min-elements 1000000 --max-elements 3000001 \
  --dtypes float16 float32 bfloat16 --seed 5 --noise 0.02 --specials > /dev/null
"$dumpcmp" compare -m sp/left -g sp/right -out sp1 --device cpu --quiet
run 5 compare -m sp/left -g sp/right -out sp5 --device cpu > sp5.out
grep -q ", 2 tensors split between ranks" sp5.out || fail "5 ranks: $(cat sp5.out)"
cmp sp1/result_*.csv sp5/result_*.csv || fail "split tensors on 5 ranks differ"
echo "dominant tensors split between ranks (cpu, thrust-omp, 2-5 ranks): equal to one process"

# --- Whole trees: 4 devices x 3 steps, leaves dealt by bytes and by device.
fill() { mkdir -p "$1" && cp "$2"/* "$1"/; }
for s in 0 5 10; do
  "$gen" --out "g$s" --ops 20 --seed "$s" --noise 0.01 --specials > /dev/null
  for d in 0 1 2 3; do
    fill "npu/2024010112000$d/$d/net_1/1/$s" "g$s/left"
    fill "gold/2024010112000$d/$d/net_1/1/$s" "g$s/right"
  done
done
strip() {  # the result files and summary without their time stamps
  (cd "$1" && for f in *_result_*.csv; do echo "== ${f%_result_*}"; cat "$f"; done
   sed -E 's/_result_[0-9]{14}\.csv/_result_TS.csv/' summary.csv)
}
"$dumpcmp" compare --tree -m npu -g gold -out tone --device cpu --quiet
strip tone > tone.txt
for n in 2 3 4; do
  run "$n" compare --tree -m npu -g gold -out "tnp$n" --device cpu > "tnp$n.out"
  strip "tnp$n" | cmp tone.txt - > /dev/null || fail "tree on $n ranks differs"
  ranks=$(grep -o '(rank [0-9]*)' "tnp$n.out" | sort -u | wc -l)
  [ "$ranks" = "$n" ] || fail "tree on $n ranks: leaves ran on $ranks ranks: $(cat "tnp$n.out")"
done
run 2 compare --tree -m npu -g gold -out tdev --device cpu --shard-by device > tdev.out
strip tdev | cmp tone.txt - > /dev/null || fail "tree dealt by device differs"
for d in 0 1 2 3; do
  [ "$(grep "device $d," tdev.out | grep -o '(rank [0-9]*)' | sort -u | wc -l)" = 1 ] ||
    fail "device $d's leaves ran on several ranks: $(cat tdev.out)"
done
echo "trees: 2-4 ranks equal to one process, by bytes and by device"

# --- A rank killed mid-run: mpirun ends the run; --resume (on another rank count) finishes it.
"$gen" --out rsrc --ops 8 --inputs 0 --min-elements 262144 --max-elements 262144 --dtypes float32 \
  --noise 0.01 > /dev/null
for s in $(seq 0 23); do
  fill "rnpu/20240101120000/0/net_1/1/$s" rsrc/left
  fill "rgold/20240101120000/0/net_1/1/$s" rsrc/right
done
"$dumpcmp" compare --tree -m rnpu -g rgold -out rfull --device cpu --quiet
strip rfull > rfull.txt
run 3 compare --tree -m rnpu -g rgold -out rpart --device cpu --quiet > /dev/null 2> killed.err &
launcher=$!
victim=""
for _ in $(seq 1 200); do  # the process of rank 2
  for p in $(pgrep -f "dumpcmp compare --tree -m rnpu" || true); do
    if tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx OMPI_COMM_WORLD_RANK=2; then victim=$p; fi
  done
  [ -n "$victim" ] && break
  sleep 0.02
done
[ -n "$victim" ] || fail "rank 2 never started"
for _ in $(seq 1 200); do  # until rank 0 has written a few leaves
  [ "$( (ls rpart/*_result_*.csv 2> /dev/null || true) | wc -l)" -ge 3 ] && break
  sleep 0.01
done
kill -9 "$victim" 2> /dev/null || true
set +e
wait "$launcher"
code=$?
set -e
if [ "$code" = 0 ]; then
  echo "note: the run ended before rank 2 was killed"
else
  grep -qi "rank 2" killed.err || fail "the killed rank is not named: $(cat killed.err)"
  cat killed.err | grep -i "rank 2" | head -n 2
  # A summary only when the kill came after the run had finished its work (a loaded machine):
  # then it is the whole run's.
  if [ -e rpart/summary.csv ]; then
    strip rpart | cmp rfull.txt - > /dev/null || fail "a summary after a rank died"
    echo "note: rank 2 was killed after the run had finished"
  fi
fi
run 2 compare --tree -m rnpu -g rgold -out rpart --device cpu --resume > resumed.out
strip rpart | cmp rfull.txt - > /dev/null || fail "resumed on 2 ranks differs from the whole run"
if find rpart -name '*.partial' | grep -q .; then fail "a partial file is left"; fi
echo "rank 2 killed (exit $code): resumed on 2 ranks, $(grep -c '(resumed)' resumed.out || true) leaves from the journal, outputs equal"

# --- msprobe runs: --steps dealt step by step, rank 0 writes every step's files; one step's
# compare runs on rank 0 alone.
python3 "$here/../data/msprobe_dump/make_cases.py" probe > /dev/null
mkdir -p pnpu pbench
for step in 0 1 2 3; do
  cp -r probe/ranks/npu "pnpu/step$step"
  [[ $step == 3 ]] || cp -r probe/ranks/bench "pbench/step$step"
done
echo '{"task": "statistics", "data": {' > pnpu/step2/rank1/dump.json
# The per-rank result files of a steps run, timestamps dropped, with their bytes.
probe_files() {
  (cd "$1" && for f in $(find . -name 'compare_result_*' | sort); do
    echo "${f%_*}"
    cat "$f"
  done)
  cut -d, -f1-9,11- "$1/summary.csv"
}
"$dumpcmp" compare -tp pnpu -gp pbench --steps -o psolo > /dev/null 2>&1
probe_files psolo > psolo.txt
for n in 2 3 5; do
  run "$n" compare -tp pnpu -gp pbench --steps -o "pnp$n" > "pnp$n.out" 2>&1 ||
    fail "--steps on $n ranks: $(cat "pnp$n.out")"
  probe_files "pnp$n" | cmp psolo.txt - > /dev/null || fail "--steps on $n ranks differs from one process"
done
run 3 compare -tp pnpu/step0 -gp pbench/step0 -o pone > pone.out 2>&1 || fail "$(cat pone.out)"
[[ $(ls pone | grep -c '^compare_result_rank') == 2 ]] || fail "one step on 3 ranks: $(ls pone)"
echo "msprobe --steps: 2, 3 and 5 ranks equal to one process; one step on rank 0"
