#!/usr/bin/env bash
# End to end: dumpcmp compare_stats writes byte for byte what msprobe's statistics compare wrote
# (tests/data/msprobe_stats, see its README) on two synthetic dump roots and on the real MindSpore
# statistic.csv files S1-S6 of ../shared/realdata, for both numpy generations; then its own
# single-table and CANN per-op modes, and its errors. Exits 77 after the synthetic checks when the
# real data is absent.
set -euo pipefail
dumpcmp=$1 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
data="$root/tests/data/msprobe_stats"

# same RESULT EXPECTED PLACEHOLDER DIR: EXPECTED with PLACEHOLDER replaced by DIR equals RESULT.
same() {
  python3 - "$1" "$2" "$3" "$4" <<'PY' || fail "$1 differs from $2"
import sys
result, expected, placeholder, d = sys.argv[1:]
want = open(expected, newline='').read().replace(placeholder, d)
got = open(result, newline='').read()
if got != want:
    for i, (g, w) in enumerate(zip(got.split('\n'), want.split('\n'))):
        if g != w:
            print(f'line {i + 1}:\n  dumpcmp: {g}\n  msprobe: {w}')
            break
    sys.exit(1)
PY
}

for case in edge_cases cann_header; do
  dir=$(cd "$data/$case" && pwd -P)
  for np in 1 2; do
    out="$work/$case$np"
    "$dumpcmp" compare_stats -m "$dir/npu" -g "$dir/bench" -out "$out" --numpy "$np" > "$out.log"
    same "$(ls "$out"/compare_result_*_*_*.csv)" "$data/$case/expected_numpy$np.csv" @CASE@ "$dir"
  done
done
# msprobe's own command line: `compare -tp -gp -o --rank` on two directories is this compare.
dir=$(cd "$data/edge_cases" && pwd -P)
"$dumpcmp" compare -tp "$dir/npu" -gp "$dir/bench" -o "$work/tp_rank" --rank 0 --numpy 1 > /dev/null
same "$(ls "$work/tp_rank"/compare_result_*_*_*.csv)" "$data/edge_cases/expected_numpy1.csv" @CASE@ "$dir"
# The summary line: 16 rows, 10 compared, 3 with verdict No, the earliest NPU timestamp first.
grep -q '^dumpcmp: compare_stats rank 0 step 0: 16 rows, 10 compared, 3 outside tolerance (1 NPU only, 2 bench only), first divergent op: a_op.1.input.0; result written to ' \
  "$work/edge_cases2.log" || fail "summary line: $(cat "$work/edge_cases2.log")"
set +e
"$dumpcmp" compare_stats -m "$data/edge_cases/npu" -g "$data/edge_cases/bench" -out "$work/f" --fail-on-threshold > /dev/null
rc=$?
set -e
[ $rc -eq 5 ] || fail "--fail-on-threshold exited $rc, not 5"
# The options every compare takes (issue 34): --quiet keeps the console empty, -j is taken.
"$dumpcmp" compare_stats -m "$data/edge_cases/npu" -g "$data/edge_cases/bench" -out "$work/q" \
  --quiet -j 1 > "$work/q.log"
[ ! -s "$work/q.log" ] || fail "compare_stats --quiet printed: $(cat "$work/q.log")"
cmp "$work"/edge_cases2/compare_result_0_0_*.csv "$work"/q/compare_result_0_0_*.csv ||
  fail "compare_stats --quiet -j 1 wrote another result"

# CANN per-op stats files: one directory per side, one table each.
mkdir -p "$work/cann_npu" "$work/cann_bench"
h='Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,Negative Inf Count,Positive Inf Count'
printf '%s\nInput,0,64,DT_FLOAT,ND,16,2,1,1.5,16,0,0,0\nOutput,0,64,DT_FLOAT,ND,16,9,1,3,16,0,0,0\n' "$h" > "$work/cann_npu/Add.add1.3.0.1700000000000001.csv"
printf '%s\nInput,0,64,DT_FLOAT,ND,16,2,1,1.5,16,0,0,0\nOutput,0,64,DT_FLOAT,ND,16,3,1,2,16,0,0,0\n' "$h" > "$work/cann_bench/Add.add1.3.0.1700000000000002.csv"
"$dumpcmp" compare_stats -m "$work/cann_npu" -g "$work/cann_bench" -out "$work/cann" > "$work/cann.log" 2> "$work/cann.err"
grep -q ': 2 rows, 2 compared, 1 outside tolerance (0 NPU only, 0 bench only), first divergent op: add1.3.Output.0;' "$work/cann.log" || fail "CANN summary: $(cat "$work/cann.log")"
result=$(ls "$work"/cann/compare_stats_result_??????????????.csv) || fail "CANN result name"
grep -q '^add1.3.Output.0,add1.3.Output.0,DT_FLOAT,DT_FLOAT,16,16,9.0,1.0,3.0,,3.0,1.0,2.0,,No,,6.0,0.0,1.0,,200.0%,0.0%,50.0%,Nan,' "$result" || fail "CANN row: $(cat "$result")"

# Errors: a malformed file names FILE:LINE (exit 2); a file against a dump root is a usage error.
printf 'Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value\nA,a,0,0,12x,input,0,4,float32,(2),1\n' > "$work/bad.csv"
set +e
"$dumpcmp" compare_stats -m "$work/bad.csv" -g "$work/bad.csv" -out "$work/e" 2> "$work/bad.err"; rc=$?
"$dumpcmp" compare_stats -m "$work/bad.csv" -g "$data/edge_cases/bench" -out "$work/e" 2> /dev/null; rc2=$?
"$dumpcmp" compare_stats -m "$work/none" -g "$work/none" -out "$work/e" 2> /dev/null; rc3=$?
set -e
[ $rc -eq 2 ] || fail "malformed file exited $rc"
grep -q "bad.csv:2: Timestamp '12x' is not a whole number" "$work/bad.err" || fail "message: $(cat "$work/bad.err")"
[ $rc2 -eq 1 ] || fail "file against a dump root exited $rc2"
[ $rc3 -ne 0 ] || fail "a missing path exited 0"
ls "$work"/e/*.partial > /dev/null 2>&1 && fail "a .partial file was left behind"

# The real MindSpore statistics (S1-S6).
real="$root/../shared/realdata/msinsight/test/smoke-test/msprobe_smoke/att_smoke-my_fix_branch/att_smoke-my_fix_branch/Testcases1/msprobe_ms_compare/test_data/ms_graph_statistic_compare_data"
if [ ! -d "$real" ]; then echo "test_stats: realdata not present, real-data checks skipped"; exit 77; fi
real=$(cd "$real" && pwd -P)
for np in 1 2; do
  out="$work/real$np"
  "$dumpcmp" compare_stats -m "$real/dump_data0" -g "$real/dump_data1" -out "$out" --numpy "$np" > "$out.log" 2> "$out.err"
  for step in 0 1 2; do
    same "$(ls "$out"/compare_result_0_${step}_*.csv)" "$data/realdata/expected_numpy${np}_step$step.csv" @REALDATA@ "$real"
  done
  [ "$(grep -c ': 247 rows, 247 compared, 0 outside tolerance' "$out.log")" -eq 3 ] || fail "real summaries: $(cat "$out.log")"
  grep -q "statistic.csv: no 'Avg Value' column (compared as NaN)" "$out.err" || fail "no warning for the missing Avg Value column"
done
# One file per side: the same rows as the dump-root compare of step 0, under dumpcmp's own name.
"$dumpcmp" compare_stats -m "$real/dump_data0/rank_0/mnist/0/0/statistic.csv" \
  -g "$real/dump_data1/rank_0/mnist/0/0/statistic.csv" -out "$work/single" > /dev/null 2>&1
same "$(ls "$work"/single/compare_stats_result_*.csv)" "$data/realdata/expected_numpy2_step0.csv" @REALDATA@ "$real"
"$dumpcmp" compare_stats -m "$real/dump_data0" -g "$real/dump_data1" -out "$work/sel" --step 1 > "$work/sel.log" 2>/dev/null
[ "$(ls "$work"/sel | wc -l)" -eq 1 ] && ls "$work"/sel/compare_result_0_1_*.csv > /dev/null || fail "--step 1"
echo "test_stats: ok"
