#!/usr/bin/env bash
# End to end: dumpcmp overflow writes what msaccucmp writes for Opdebug files of both layouts
# (tests/data/msaccucmp_overflow), then its own NaN / Inf / fp16-overflow scan of every dump.
set -euo pipefail
dumpcmp=$1 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
for case in new_layout old_layout; do
  data="$root/tests/data/msaccucmp_overflow/$case"
  "$dumpcmp" overflow -d "$data/dump" -out "$work/$case" > "$work/$case.log"
  summary=$(ls "$work/$case"/overflow_summary_*.txt)
  expected="$data/expected/overflow_summary.txt"
  head -c "$(wc -c < "$expected")" "$summary" | cmp - "$expected" || fail "$case summary"
  for f in "$data"/expected/*.npy "$data"/expected/*.json; do
    cmp "$f" "$work/$case/$(basename "$f")" || fail "$case $(basename "$f")"
  done
done
# convert writes an Opdebug file as msaccucmp does too: its record as JSON.
for case in new_layout old_layout; do
  data="$root/tests/data/msaccucmp_overflow/$case"
  "$dumpcmp" convert -d "$(ls "$data"/dump/Opdebug.*)" -out "$work/convert_$case" > /dev/null
  cmp "$(ls "$data"/expected/*.json)" "$(ls "$work/convert_$case"/*.json)" || fail "convert of $case Opdebug"
done
# The scan: counted by hand from the data (tests/data/msaccucmp_overflow/README.md).
s=$(ls "$work"/new_layout/overflow_summary_*.txt)
grep -q '^\[dumpcmp\] NaN / Inf / fp16 overflow in 2 of 3 dump files; the first 2:$' "$s" || fail "scan header"
grep -q '^  output:0 float16 \[4\] NaN 0, +Inf 0, -Inf 0, fp16 overflow (|x| >= 65504) 1 of 4$' "$s" || fail "fp16 row"
grep -q '^  input:0 float32 \[3\] NaN 1, +Inf 1, -Inf 0 of 3$' "$s" || fail "float32 row"
grep -q 'relu1' "$s" && fail "a clean op is listed"
"$dumpcmp" overflow -d "$root/tests/data/msaccucmp_overflow/new_layout/dump" -out "$work/one" --first 1 >/dev/null
[ "$(grep -c '^\[[0-9]\] \[' "$work"/one/overflow_summary_*.txt)" -eq 1 ] || fail "--first 1"
rc=0
"$dumpcmp" overflow -d "$work/nothing" -out "$work/x" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q 'the -d parameter' "$work/log" || fail "missing directory"
echo "overflow: ok"
