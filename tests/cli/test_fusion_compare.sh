#!/usr/bin/env bash
# End to end: the fusion-rule compare's command-line contract (scenario matrix, exit codes, files
# left behind, OverFlow in NPU-vs-NPU mode). Row values are checked against msaccucmp in
# test_msaccucmp_fusion_golden.sh.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
data="$root/tests/data/msaccucmp_fusion"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_usage_error() {  # expected message, then the compare arguments
  local message=$1; shift
  local rc=0
  "$dumpcmp" compare "$@" -out "$work/usage" > "$work/log" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc for $*: $(cat "$work/log")"
  grep -qF "$message" "$work/log" || fail "message for $*: $(cat "$work/log")"
}
q="$data/quant"
expect_usage_error "the -q parameter is required." -m "$q/om_left" -g "$q/right" -f "$q/model.json"
expect_usage_error "there is no need to enter the -f parameter." \
  -m "$q/quant_left" -g "$q/right" -q "$q/quant.json" -f "$q/model.json"
expect_usage_error "the -f parameter is required." -m "$data/basic/left" -g "$data/basic/right"
expect_usage_error "this scenario cannot be compared." \
  -m "$data/basic/right" -g "$data/basic/right" -f "$data/basic/model.json"
expect_usage_error "need a fusion rule" -m "$data/basic/left" -g "$data/basic/right" -r 1,2,1
expect_usage_error "The range (1,2) is invalid" \
  -m "$data/basic/left" -g "$data/basic/right" -f "$data/basic/model.json" -r 1,2
expect_usage_error "The end index (40) is out of range [1, 19]" \
  -m "$data/basic/left" -g "$data/basic/right" -f "$data/basic/model.json" -r 1,40,1
expect_usage_error "there is need to enter the -f or -q parameter" \
  -m "$data/basic/left" -g "$data/basic/right" -map
[ ! -e "$work/usage" ] || [ -z "$(ls "$work/usage")" ] || fail "a usage error left files behind"

# A model that matches no dump: the result is still written (NaN rows), the run fails (exit 2).
mkdir -p "$work/other"
cp "$data/basic/left/Mul.big.19.0.1700000000000019" "$work/other/Mul.unrelated.19.0.1700000000000019"
rc=0
"$dumpcmp" compare -m "$work/other" -g "$data/basic/right" -f "$data/basic/model.json" \
  -out "$work/nomatch" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "no-match exit $rc"
grep -q "The model does not match the dump data" "$work/log" || fail "no-match message"
# one NaN row per fusion group (16), each saying why
[ "$(wc -l < "$work"/nomatch/result_*.csv)" -eq 17 ] || fail "no-match rows"
grep -q '^15,Mul,big,NaN,NaN,big,.*There is no dump file for my output operator ""big""' \
  "$work"/nomatch/result_*.csv || fail "no-match row of big"

# A malformed rule names the file.
printf '{"graph": [' > "$work/broken.json"
rc=0
"$dumpcmp" compare -m "$data/basic/left" -g "$data/basic/right" -f "$work/broken.json" \
  -out "$work/broken" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "broken json exit $rc"
grep -q "broken.json" "$work/log" || fail "broken json message: $(cat "$work/log")"

# NPU vs NPU: -overflow_detection adds the OverFlow column after Shape, from the left tensor.
"$gen" --out "$work/npu" --ops 3 --max-elements 64 --dtypes float16 float32 >/dev/null
"$dumpcmp" compare -m "$work/npu/left" -g "$work/npu/right" -out "$work/ov" -overflow_detection \
  --device cpu >/dev/null
csv=$(ls "$work"/ov/result_*.csv)
head -n 1 "$csv" | grep -q ',TensorIndex,Shape,OverFlow,CosineSimilarity,' || fail "OverFlow header"
python3 - "$csv" <<'PY' || fail "OverFlow cells"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
col = rows[0].index("OverFlow")
for r in rows[1:]:
    want = "NO" if r[3] == "float16" else "NaN"
    assert r[col] == want, (r[3], r[col])
PY
echo "fusion compare CLI: ok"
