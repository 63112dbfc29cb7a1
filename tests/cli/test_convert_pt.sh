#!/usr/bin/env bash
# convert -t pt writes what torch.save(torch.from_numpy(array)) writes: checked against the -t npy
# arrays by tests/cli/pt_check.py (the zip records and the pickle with the standard library; with
# torch.load too when python3 can import torch), on dtypes from bool to complex, empty and scalar
# tensors, and FFTS+ slices shaped by their thread's slice.
set -euo pipefail
dumpcmp=$1 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for case in msaccucmp/mixed msaccucmp/empty_scalar_bool msaccucmp/ffts msaccucmp/bf16; do
  name=$(basename "$case")
  # a file with an int4 tensor fails as a whole (exit 2); the rest are checked
  "$dumpcmp" convert -d "$root/tests/data/$case/left" -t pt -out "$work/$name/pt" >/dev/null 2>&1 || true
  "$dumpcmp" convert -d "$root/tests/data/$case/left" -t npy -out "$work/$name/npy" >/dev/null 2>&1 || true
  result=$(python3 "$root/tests/cli/pt_check.py" "$work/$name/pt" "$work/$name/npy")
  echo "$name: $result"
done
echo "test_convert_pt: ok"
