#!/usr/bin/env bash
# Every file dumpcmp writes in single-operator detail mode (-op) is byte-identical to the real
# msaccucmp's in tests/data/msaccucmp_detail/expected.
set -euo pipefail
dumpcmp=$1 root=$3
data="$root/tests/data"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
while IFS='|' read -r name case args; do
  name=$(echo "$name" | xargs); case=$(echo "$case" | xargs)
  [[ -z "$name" || "$name" == \#* ]] && continue
  out="$work/$name"
  mkdir -p "$out"
  # shellcheck disable=SC2086  # the argument list is split on purpose
  (cd "$data/$case" && "$dumpcmp" compare $args -out "$out" >"$out.log" 2>&1) ||
    { echo "FAIL: $name exited non-zero"; cat "$out.log"; failed=1; continue; }
  expected="$data/msaccucmp_detail/expected/$name"
  for file in "$expected"/*; do
    if ! cmp -s "$file" "$out/$(basename "$file")"; then
      echo "FAIL: $name: $(basename "$file") differs"; failed=1
    fi
  done
  [ "$(ls "$out" | wc -l)" -eq "$(ls "$expected" | wc -l)" ] || { echo "FAIL: $name: file count"; failed=1; }
  echo "$name: $(ls "$expected" | wc -l) files identical"
done < "$data/msaccucmp_detail/runs.txt"
exit $failed
