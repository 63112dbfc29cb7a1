#!/usr/bin/env bash
# End to end: dumpcmp config new writes starter files that config check accepts; check reports
# each problem with the file and its JSON path, exits non-zero, and names malformed JSON.
set -euo pipefail
dumpcmp=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/dump"
for kind in model single-op overflow exception watcher; do
  "$dumpcmp" config new --kind "$kind" --dump-path "$work/dump" -o "$work/$kind.json" >/dev/null
  "$dumpcmp" config check "$work/$kind.json" > "$work/log" || fail "$kind starter rejected: $(cat "$work/log")"
  grep -q "valid$" "$work/log" || fail "$kind: no verdict"
done
cat > "$work/bad.json" <<JSON
{"dump": {"dump_path": "$work/dump", "dump_mode": "every", "dump_step": "4-2",
          "dump_list": [{"model_name": "m"}, {"model_name": "m", "layer": []}]}}
JSON
rc=0
"$dumpcmp" config check "$work/bad.json" > "$work/log" || rc=$?
[ "$rc" -eq 2 ] || fail "exit $rc for an invalid file"
grep -q "bad.json: dump.dump_mode: " "$work/log" || fail "dump_mode problem"
grep -q "bad.json: dump.dump_step: " "$work/log" || fail "dump_step problem"
grep -q "bad.json: dump.dump_list\[1\].model_name: .*twice" "$work/log" || fail "duplicate model"
grep -q "bad.json: dump.dump_list\[1\].layer: " "$work/log" || fail "empty layer"
grep -q "4 problem(s)" "$work/log" || fail "count: $(cat "$work/log")"
"$dumpcmp" config check --json "$work/bad.json" > "$work/json" || true
python3 -c "import json,sys; d=json.load(open('$work/json')); assert not d['valid'] and len(d['problems'])==4" ||
  fail "--json output"
printf '{"dump": {' > "$work/broken.json"
rc=0
"$dumpcmp" config check "$work/broken.json" > "$work/log" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'broken.json: \$: not valid JSON' "$work/log" || fail "malformed JSON: $(cat "$work/log")"
rc=0
"$dumpcmp" config new --kind nonsense > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "bad --kind"
echo "config: ok"
