#!/usr/bin/env bash
# End to end: dumpcmp compare on a generated network with special values and one-sided ops.
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$gen" --out "$work/d" --ops 12 --max-elements 50000 --inputs 2 --specials --dtypes float16 float32 bfloat16 >/dev/null
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out" -j 2 > "$work/log"
csv=$(ls "$work"/out/result_*.csv)
[ "$(ls "$work/out" | wc -l)" -eq 1 ] || fail "expected exactly one file in the output directory"
grep -q "result written to $csv" "$work/log" || fail "summary does not name the result file"

header=$(head -n 1 "$csv")
expected='Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,Address,TensorIndex,Shape,CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,RelativeEuclideanDistance,KullbackLeiblerDivergence,StandardDeviation,MeanAbsoluteError,RootMeanSquareError,MaxRelativeError,MeanRelativeError,CompareFailReason'
[ "$header" = "$expected"$'\r' ] || fail "header: $header"
# every line ends in CRLF
[ "$(grep -c $'\r$' "$csv")" -eq "$(wc -l < "$csv")" ] || fail "not all lines end in CRLF"
# 12 ops x 3 tensors + 2 one-sided op rows + header
[ "$(wc -l < "$csv")" -eq $((12 * 3 + 2 + 1)) ] || fail "row count $(wc -l < "$csv")"
grep -q '^12,NaN,left_only,NaN,0,\*,NaN,NaN,NaN,NaN,' "$csv" && fail "one-sided row must not carry an address"
grep -q '^12,NaN,left_only,NaN,NaN,\*,NaN,NaN,NaN,NaN,.*There is no the ground truth dump file for the op ""left_only""' "$csv" || fail "left-only row"
grep -q '^13,NaN,\*,NaN,NaN,right_only,.*There is no the my output dump file for the op ""right_only""' "$csv" || fail "right-only row"
grep -q '^0,Conv2D,layer0,float16,0,layer0,float16,0,layer0:input:0,\[' "$csv" || fail "first row identity"
grep -q '^1,Add,layer1,float32,0,layer1,float32,0,layer1:output:0,.*,nan,' "$csv" || fail "NaN special row"

# the same result whatever the thread count, and with -alg selections
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out1" -j 1 >/dev/null
cmp <(tail -n +2 "$csv") <(tail -n +2 "$work"/out1/result_*.csv) || fail "-j 1 and -j 2 differ"
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out2" -alg 0 5 -max 100 >/dev/null \
  2>"$work/max.err"
head -n 1 "$work"/out2/result_*.csv | grep -q 'Shape,CosineSimilarity,StandardDeviation,CompareFailReason' || fail "-alg 0 5"
# -max cuts tensors only through a rule file: without one msaccucmp compares them whole (checked
# beside it), and dumpcmp says so.
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out_max" -max 100 >/dev/null \
  2>>"$work/max.err"
cmp <(tail -n +2 "$csv") <(tail -n +2 "$work"/out_max/result_*.csv) || fail "-max cut an NPU-vs-NPU compare"
[ "$(grep -c 'warning: -max 100 cuts tensors compared through a rule file (-f/-q) only' "$work/max.err")" = 2 ] ||
  fail "-max without a rule: $(cat "$work/max.err")"

# -alg as msaccucmp takes it: an unknown name beside a valid one is skipped with its warning; names
# separated by spaces are refused as argparse refuses them (only indexes may be)
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out_alg" -alg Bogus,1 \
  >/dev/null 2>"$work/alg.err"
head -n 1 "$work"/out_alg/result_*.csv | grep -q 'Shape,MaxAbsoluteError,CompareFailReason' || fail "-alg Bogus,1"
grep -q "warning: The 'Bogus' does not supported in builtin or custom" "$work/alg.err" ||
  fail "-alg Bogus,1 warning"
set +e
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out_alg2" \
  -alg CosineSimilarity KullbackLeiblerDivergence 2>"$work/alg.err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "unrecognized arguments: KullbackLeiblerDivergence" "$work/alg.err" ||
  fail "-alg with names separated by spaces: $rc"

# a truncated dump fails its own op row and the run goes on
f=$(ls "$work"/d/left/Mul.layer2.*)
head -c 100 "$f" > "$f.tmp" && mv "$f.tmp" "$f"
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/out3" >/dev/null
grep -q "^2,NaN,layer2,NaN,NaN,layer2,.*$(basename "$f")" "$work"/out3/result_*.csv || fail "truncated dump row"
[ "$(wc -l < "$(ls "$work"/out3/result_*.csv)")" -eq $((11 * 3 + 1 + 2 + 1)) ] || fail "rows after truncation"

# usage and input errors: clear message, non-zero exit, no result file
set +e
"$dumpcmp" compare -m "$work/nope" -g "$work/d/right" -out "$work/out4" 2> "$work/err"; rc=$?
set -e
[ $rc -eq 2 ] || fail "missing directory exit code $rc"
grep -q "$work/nope" "$work/err" || fail "missing directory message: $(cat "$work/err")"
[ -z "$(ls "$work/out4" 2>/dev/null)" ] || fail "a failed run left a file"
set +e
"$dumpcmp" compare -m "$work/d/left" 2>/dev/null; rc=$?
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -alg Bogus 2>/dev/null; rc2=$?
set -e
[ $rc -eq 1 ] && [ $rc2 -eq 1 ] || fail "usage exit codes $rc $rc2"
echo "test_compare: ok"
