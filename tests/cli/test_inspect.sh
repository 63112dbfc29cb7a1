#!/usr/bin/env bash
# End to end: dumpcmp inspect on the real nano-format device dump from ../shared/realdata.
set -euo pipefail
dumpcmp=$1 root=$3
real="$root/../shared/realdata/msprobe/test/msprobe_test/msaccucmp_ut/resource/ConcatV2D.concatv2.0.0.550288648"
if [ ! -f "$real" ]; then echo "test_inspect: realdata not present, skipped"; exit 77; fi
out=$("$dumpcmp" inspect "$real")
grep -q concatv2 <<<"$out" || { echo "FAIL: op name missing: $out"; exit 1; }
grep -q 14682 <<<"$out" || { echo "FAIL: output shape missing: $out"; exit 1; }
json=$("$dumpcmp" inspect --json "$real")
python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); assert len(d)==1' <<<"$json" || { echo "FAIL: bad JSON: $json"; exit 1; }
set +e
"$dumpcmp" inspect /nonexistent/file 2>/dev/null; rc=$?
set -e
[ $rc -ne 0 ] || { echo "FAIL: inspect of a missing file exited 0"; exit 1; }
echo "test_inspect: ok"
