#!/usr/bin/env bash
# Every file `dumpcmp convert` writes is byte-identical to the real msaccucmp's
# (tests/data/msaccucmp_convert).
set -euo pipefail
dumpcmp=$1 root=$3
data="$root/tests/data/msaccucmp_convert"
dumps=$(cd "$root/tests/data/msaccucmp_fusion/layouts/left" && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
while IFS='|' read -r name args; do
  name=$(echo "$name" | xargs)
  [[ -z "$name" || "$name" == \#* ]] && continue
  out="$work/$name"
  # shellcheck disable=SC2086  # the argument list is split on purpose
  "$dumpcmp" convert ${args//@CASE@/$dumps} -out "$out" >"$out.log" 2>&1 || true
  expected="$data/expected/$name"
  for file in "$expected"/*; do
    base=$(basename "$file")
    if [ "$base" = convert_failed_file_list.txt ]; then
      diff <(sed "s#$dumps#@CASE@#" "$out/$base" | sort) "$file" >/dev/null ||
        { echo "FAIL: $name: $base differs"; failed=1; }
    elif ! cmp -s "$file" "$out/$base"; then
      echo "FAIL: $name: $base differs"; failed=1
    fi
  done
  [ "$(ls "$out" | wc -l)" -eq "$(ls "$expected" | wc -l)" ] ||
    { echo "FAIL: $name: $(ls "$out" | wc -l) files, expected $(ls "$expected" | wc -l)"; failed=1; }
  echo "$name: $(ls "$expected" | wc -l) files checked"
done < "$data/runs.txt"
exit $failed
