#!/usr/bin/env bash
# End to end: single-operator detail mode's files, splitting, options and errors (the bytes are
# checked against msaccucmp in test_msaccucmp_detail_golden.sh).
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$gen" --out "$work/d" --ops 2 --inputs 1 --min-elements 25000 --max-elements 25000 \
  --dtypes float32 >/dev/null
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -op layer1 -i 0 -ml 10000 -n 7 \
  -out "$work/out" > "$work/log"
cd "$work/out"
for f in layer1_input_0.npy layer1_input_0_summary.txt layer1_input_0_0.csv \
         layer1_input_0_10000.csv layer1_input_0_20000.csv \
         layer1_input_0_absolute_error_topn.csv layer1_input_0_relative_error_topn.csv; do
  [ -f "$f" ] || fail "missing $f"
done
[ "$(wc -l < layer1_input_0_10000.csv)" -eq 10001 ] || fail "rows in the second file"
[ "$(wc -l < layer1_input_0_20000.csv)" -eq 5001 ] || fail "rows in the last file"
head -n 2 layer1_input_0_20000.csv | tail -n 1 | grep -q '^20000,20000 0 0 0,' || fail "global index"
grep -q '^TotalCount:25000$' layer1_input_0_summary.txt || fail "summary count"
[ "$(wc -l < layer1_input_0_absolute_error_topn.csv)" -eq 8 ] || fail "top-n rows"
# the top-N really are the largest absolute errors, largest first
python3 - <<'PY' || fail "top-n order"
import csv
rows = [r for r in csv.reader(open("layer1_input_0_0.csv"))][1:]
for name in ("layer1_input_0_10000.csv", "layer1_input_0_20000.csv"):
    rows += [r for r in csv.reader(open(name))][1:]
errors = sorted((float(r[4].strip()), int(r[0])) for r in rows)[::-1][:7]
top = [(float(r[4].strip()), int(r[0])) for r in list(csv.reader(open("layer1_input_0_absolute_error_topn.csv")))[1:]]
assert [e for e, _ in top] == [e for e, _ in errors], (top, errors)
PY

# A second run replaces the old files; --ignore_single_op_result writes no per-element CSVs.
"$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -op layer1 -i 0 \
  --ignore_single_op_result -out "$work/out" > "$work/log"
ls "$work/out" | grep -q 'layer1_input_0_10000.csv' && fail "old files were not deleted"
[ "$(ls "$work/out" | wc -l)" -eq 4 ] || fail "files with --ignore_single_op_result: $(ls "$work/out")"

# The legacy spelling: compare_vector -l -r -o DIR -d OP -t input -i 0 gives the same files.
"$dumpcmp" compare_vector -l "$work/d/left" -r "$work/d/right" -o "$work/legacy" -d layer1 \
  -t input -i 0 > "$work/log"
cmp "$work/out/layer1_input_0_summary.txt" "$work/legacy/layer1_input_0_summary.txt" ||
  fail "compare_vector -d summary"

expect() {  # expect CODE MESSAGE args...
  local code=$1 message=$2; shift 2
  local rc=0
  "$dumpcmp" compare -m "$work/d/left" -g "$work/d/right" -out "$work/err" "$@" > "$work/log" 2>&1 || rc=$?
  [ "$rc" -eq "$code" ] || fail "exit $rc for $*: $(cat "$work/log")"
  grep -qF "$message" "$work/log" || fail "message for $*: $(cat "$work/log")"
}
expect 2 "Failed to find nothing dump data from -m dump data path." -op nothing
expect 2 "[layer1] The output index (3) is out of range [0, 1). Please check the index." -op layer1 -o 3
expect 1 "out of range 10000 - 1000000" -op layer1 -ml 5
expect 1 "the -op parameter is invalid" -op layer1 -map
expect 1 "It only supports natural number" -op layer1 -o x
echo "detail: ok"
