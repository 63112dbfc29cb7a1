#!/usr/bin/env bash
# End to end: file_compare and compare on .npy files and directories (values checked against
# msaccucmp's own output for the same arrays, 2026-11-22).
set -euo pipefail
dumpcmp=$1 root=$3
mk="python3 $root/tests/cli/make_npy.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

$mk "$work/a.npy" '<f4' 2,2 1 2 3 4
$mk "$work/b.npy" '<f4' 2,2 1 2 3 5
$mk "$work/c.npy" '<f4' 3 1 2 3
$mk "$work/t.npy" '|b1' 4 1 0 1 1
$mk "$work/u.npy" '|b1' 4 1 1 0 1

"$dumpcmp" file_compare -m "$work/a.npy" -g "$work/b.npy" -out "$work/fc" >/dev/null
expected=$'CosineSimilarity: 0.993999\nMaxAbsoluteError: 1.000000\nAccumulatedRelativeError: 0.200000\nRelativeEuclideanDistance: 0.160128\nMeanAbsoluteError: 0.250000\nRootMeanSquareError: 0.500000\nMaxRelativeError: 0.200000\nMeanRelativeError: 0.050000'
[ "$(cat "$work"/fc/file_result_*.txt)" = "$expected" ] || fail "file_compare: $(cat "$work"/fc/file_result_*.txt)"

"$dumpcmp" file_compare -m "$work/t.npy" -g "$work/u.npy" -out "$work/fb" >/dev/null 2>&1
head -n 2 "$work"/fb/file_result_*.txt | tr '\n' '|' | grep -q '^CosineSimilarity: 0.666667|MaxAbsoluteError: NaN|$' || fail "bool file_compare"

set +e
"$dumpcmp" file_compare -m "$work/a.npy" -g "$work/c.npy" -out "$work/fs" 2>"$work/err"; rc=$?
set -e
[ $rc -eq 2 ] || fail "shape mismatch exit $rc"
grep -q "My output shape (2, 2) in '$work/a.npy' does not match the ground truth shape (3) in '$work/c.npy'" "$work/err" || fail "shape message: $(cat "$work/err")"
[ -z "$(ls "$work/fs" 2>/dev/null)" ] || fail "shape mismatch left a file"

# file vs file through compare: no Address columns for .npy sides
"$dumpcmp" compare -m "$work/a.npy" -g "$work/b.npy" -out "$work/cf" >/dev/null
head -n 1 "$work"/cf/result_*.csv | grep -q '^Index,OpType,NPUDump,DataType,GroundTruth,DataType,TensorIndex,Shape,Cosine' || fail "npy header"
sed -n 2p "$work"/cf/result_*.csv | grep -q '^0,NaN,a.npy,float32,b.npy,float32,a.npy:output:0,"\[2,2\]",0.993999,1.000000,0.200000,0.160128,0.010310,' || fail "npy row: $(sed -n 2p "$work"/cf/result_*.csv)"

# .npy directories pair by op.output_index
mkdir -p "$work/L" "$work/R"
$mk "$work/L/conv1.0.1700000000000000.npy" '<f4' 4 1 2 3 4
$mk "$work/R/conv1.0.1700000000000001.npy" '<f4' 4 1 2 3 5
$mk "$work/L/relu.0.1700000000000002.npy" '<f4' 2 0 0
"$dumpcmp" compare -m "$work/L" -g "$work/R" -out "$work/cd" >/dev/null
grep -q '^0,NaN,conv1.0,float32,conv1.0,float32,conv1:output:0,\[4\],0.993999' "$work"/cd/result_*.csv || fail "npy dir row: $(cat "$work"/cd/result_*.csv)"
grep -q '^1,NaN,relu.0,NaN,\*,' "$work"/cd/result_*.csv || fail "npy left-only row"
echo "test_npy: ok"
