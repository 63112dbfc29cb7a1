#!/usr/bin/env bash
# Every row dumpcmp writes agrees with the real msaccucmp's own result file on the cases in
# tests/data/msaccucmp (see its README for where those files come from).
set -euo pipefail
dumpcmp=$1 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for case_dir in "$root"/tests/data/msaccucmp/*/; do
  name=$(basename "$case_dir")
  case_dir=$(cd "$case_dir" && pwd -P)
  "$dumpcmp" compare -m "$case_dir/left" -g "$case_dir/right" -out "$work/$name" --device cpu >/dev/null 2>&1
  if ! python3 "$root/bench/diff_results.py" "$work/$name"/result_*.csv "$case_dir/expected.csv" \
       "@CASE@" "$case_dir" > "$work/$name.diff"; then
    echo "FAIL: $name"; cat "$work/$name.diff"; failed=1
  else
    echo "$name: $(tail -n 1 "$work/$name.diff")"
  fi
done
exit $failed
