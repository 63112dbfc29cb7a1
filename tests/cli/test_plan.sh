#!/usr/bin/env bash
# compare --plan-only writes the plan as JSON lines; compare --plan runs it, from any directory, to
# the same result file byte for byte as the direct compare, on every golden NPU-vs-NPU case and
# every fusion-rule run; bad plans are refused naming the file and line.
set -euo pipefail
dumpcmp=$1 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
same_result() {  # name, directory, compare arguments...
  local name=$1 dir=$2; shift 2
  (cd "$dir" && "$dumpcmp" compare "$@" -out "$work/$name/direct" --quiet --device cpu 2>/dev/null) || true
  (cd "$dir" && "$dumpcmp" compare "$@" --plan-only "$work/$name.jsonl" --quiet 2>/dev/null)
  (cd / && "$dumpcmp" compare --plan "$work/$name.jsonl" -out "$work/$name/planned" --quiet \
     --device cpu 2>/dev/null) || true
  cmp "$work/$name"/direct/result_*.csv "$work/$name"/planned/result_*.csv >/dev/null ||
    fail "$name: the planned run's result differs"
}
n=0
for case_dir in "$root"/tests/data/msaccucmp/*/; do
  same_result "g_$(basename "$case_dir")" "$case_dir" -m left -g right
  n=$((n + 1))
done
while IFS='|' read -r name case args; do
  name=$(echo "$name" | xargs); case=$(echo "$case" | xargs)
  [[ -z "$name" || "$name" == \#* || "$args" == *-map* ]] && continue
  # shellcheck disable=SC2086  # the argument list is split on purpose
  same_result "f_$name" "$root/tests/data/msaccucmp_fusion/$case" $args
  n=$((n + 1))
done < "$root/tests/data/msaccucmp_fusion/runs.txt"
echo "$n runs: planned results byte-identical"

# To standard output: one JSON object per line, the header first.
"$dumpcmp" compare -m "$root/tests/data/msaccucmp/mixed/left" -g "$root/tests/data/msaccucmp/mixed/right" \
  --plan-only - > "$work/stdout.jsonl" 2>/dev/null
head -n 1 "$work/stdout.jsonl" | grep -q '^{"dumpcmp_plan":1,' || fail "plan header"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$work/stdout.jsonl" ||
  fail "plan lines are not JSON"

# A broken plan: exit 2 (bad input) with the file and line.
head -n 3 "$work/stdout.jsonl" > "$work/short.jsonl"
set +e
"$dumpcmp" compare --plan "$work/short.jsonl" -out "$work/short" 2> "$work/short.err"
code=$?
set -e
[ "$code" = 2 ] || fail "broken plan: exit $code"
grep -q "short.jsonl:4: the plan ends before its files" "$work/short.err" || fail "$(cat "$work/short.err")"
ls "$work/short"/result_*.csv >/dev/null 2>&1 && fail "a result file from a broken plan"
echo "broken plan refused"
