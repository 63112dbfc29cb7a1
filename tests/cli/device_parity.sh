#!/usr/bin/env bash
# Whole-network result CSVs of a device backend (thrust-omp, or cuda where a GPU is: DEVICE) are
# identical to the cpu backend's: a generated network with every special, 20,000 small tensors, a
# pair larger than the device memory budget, and the golden cases with device layouts.
# Usage: device_parity.sh DUMPCMP GEN [DEVICE]
set -euo pipefail
dumpcmp=$1 gen=$2 device=${3:-thrust-omp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$device" = cuda ]; then  # skipped, not passed, where no GPU can be used
  if ! probe=$("$dumpcmp" compare -m "$root/tests/data/msaccucmp/mixed/left" \
    -g "$root/tests/data/msaccucmp/mixed/right" -out "$work/probe" --device cuda 2>&1 >/dev/null); then
    grep -q -- "--device cuda: " <<< "$probe" || { echo "FAIL: $probe"; exit 1; }
    echo "SKIP: no usable CUDA device (${probe##*--device cuda: })"
    exit 77
  fi
fi
same() {  # same NAME DIR [extra args]
  local name=$1 dir=$2; shift 2
  "$dumpcmp" compare -m "$dir/left" -g "$dir/right" -out "$work/$name-cpu" --device cpu "$@" >/dev/null
  "$dumpcmp" compare -m "$dir/left" -g "$dir/right" -out "$work/$name-dev" --device "$device" "$@" >/dev/null
  cmp <(tail -n +2 "$work/$name-cpu"/result_*.csv) <(tail -n +2 "$work/$name-dev"/result_*.csv) ||
    { echo "FAIL: $name differs between cpu and $device"; exit 1; }
}
"$gen" --out "$work/mixed" --ops 40 --max-elements 70000 --inputs 2 --specials \
  --dtypes float16 float32 bfloat16 int32 int8 bool >/dev/null
same mixed "$work/mixed"
"$gen" --out "$work/small" --ops 10000 --inputs 1 --min-elements 1 --max-elements 64 --dtypes float32 float16 >/dev/null
same small "$work/small"
"$gen" --out "$work/big" --ops 1 --inputs 0 --min-elements 3000000 --max-elements 3000000 --dtypes float32 >/dev/null
same big "$work/big" --device-memory 4   # 24 MB of payload through a 4 MiB budget: many passes
# device layouts restored through maps on the device (the cases checked against msaccucmp)
same golden_layouts "$root/tests/data/msaccucmp/layouts"
same golden_mixed "$root/tests/data/msaccucmp/mixed"
# the fusion-rule path: conversions towards the golden's format (FRACTAL_Z, NDC1HWC0, NZ, NHWC)
fusion="$root/tests/data/msaccucmp_fusion"
same fusion_layouts "$fusion/layouts" -f "$fusion/layouts/model.json"
same fusion_basic "$fusion/basic" -f "$fusion/basic/model.json" -overflow_detection
echo "device_parity ($device): ok"
