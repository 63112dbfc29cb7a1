#!/usr/bin/env bash
# Memory follows the data (issue 34): an offline model of 2,000 small fp16 NC1HWC0 outputs against
# fp32 .npy goldens through -f (every output's binary16 side kept for the KLD pass) peaks within
# the process's own baseline (one such op) plus twice its input and 16 MiB. Before the kept sides
# shared one buffer, each took a 2 MiB huge page of its own: 8 GB here.
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
if ldd "$dumpcmp" | grep libasan > /dev/null; then  # grep -q would stop ldd early (pipefail)
  echo "SKIP: an AddressSanitizer build (its shadow memory and quarantine are not the tool's)"
  exit 77
fi
cd "$work"
peak_kib() {  # the command's peak RSS in KiB (its own status is checked)
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
"$gen" --fusion --out one --ops 1 --max-elements 1024 > /dev/null
"$gen" --fusion --out many --ops 2000 --max-elements 1024 > /dev/null
baseline=$(cd one && peak_kib "$dumpcmp" compare -m left -g right -f model.json -out o --device cpu --quiet)
peak=$(cd many && peak_kib "$dumpcmp" compare -m left -g right -f model.json -out o --device cpu --quiet)
input=$(($(du -sk many/left many/right | awk '{s += $1} END {print s}')))
limit=$((baseline + 2 * input + 16384))
[ "$(grep -c ',KullbackLeiblerDivergence,\|^[0-9]' many/o/result_*.csv)" -ge 2000 ] || fail "rows missing"
[ "$peak" -le "$limit" ] ||
  fail "2,000 small tensors: peak RSS $((peak / 1024)) MiB > $((limit / 1024)) MiB (baseline $((baseline / 1024)) MiB, input $((input / 1024)) MiB)"
echo "2,000 small NC1HWC0 fp16 outputs via -f: peak RSS $((peak / 1024)) MiB (baseline $((baseline / 1024)) MiB, input $((input / 1024)) MiB, limit $((limit / 1024)) MiB)"
