#!/usr/bin/env bash
# Every row dumpcmp writes through a fusion rule (-f, -q, -r, -s, -overflow_detection, -alg,
# -advisor, -map) agrees with the real msaccucmp's own result files in tests/data/msaccucmp_fusion.
set -euo pipefail
dumpcmp=$1 root=$3
data="$root/tests/data/msaccucmp_fusion"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
while IFS='|' read -r name case args; do
  name=$(echo "$name" | xargs); case=$(echo "$case" | xargs)
  [[ -z "$name" || "$name" == \#* ]] && continue
  out="$work/$name"
  mkdir -p "$out"
  # shellcheck disable=SC2086  # the argument list is split on purpose
  (cd "$data/$case" && "$dumpcmp" compare $args -out "$out" --device cpu >"$out.log" 2>&1) || true
  case_root=$(cd "$data/$case" && pwd -P)
  # -map writes mapping_<ts>.csv instead of result_<ts>.csv; "@CASE@" stands for the case dir.
  if ! python3 "$root/bench/diff_results.py" "$out"/*_*.csv "$data/expected/$name.csv" \
       "@CASE@" "$case_root" >"$out.diff"; then
    echo "FAIL: $name"; cat "$out.diff"; cat "$out.log"; failed=1
  else
    echo "$name: $(tail -n 1 "$out.diff")"
  fi
  expected_summary="$data/expected/${name}_summary.txt"
  if [[ -f "$expected_summary" ]] && ! diff "$out/advisor_summary.txt" "$expected_summary"; then
    echo "FAIL: $name advisor_summary.txt differs"; failed=1
  fi
done < "$data/runs.txt"
exit $failed
