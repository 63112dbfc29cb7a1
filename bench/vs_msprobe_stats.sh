#!/usr/bin/env bash
# dumpcmp beside msprobe on msprobe's statistics compare of dump.json runs, same machine, one run:
# msprobe's quick-start dump (tests/data/msprobe_dump/quick_start: a GPU ResNet-50 run, 760 ops,
# steps 0 and 1), step 0 against step 1. Both tools' result files must be equal byte for byte
# (the timestamp in the name aside); then the best of RUNS (5) wall times and peak RSS of each. Then
# the same pair as rank0 of two runs with -da (first-diff analysis): the rank's check file and the
# analysis file must be equal too.
# Usage: bench/vs_msprobe_stats.sh DUMPCMP "MSPROBE_COMMAND" [WORK_DIR]
#   MSPROBE_COMMAND runs msprobe's CLI, e.g. /tmp/msprobe-peer/bin/msprobe (../shared/peer.md).
set -euo pipefail
dumpcmp=$(realpath "$1") msprobe=$2 work=${3:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
"$dumpcmp" --version | grep '^SIMD'
for step in step0 step1; do
  mkdir -p "$work/qs/$step/proc2016" "$work/da/$step"
  for f in dump.json stack.json; do
    gzip -dc "$root/tests/data/msprobe_dump/quick_start/$step/proc2016/$f.gz" > "$work/qs/$step/proc2016/$f"
  done
  rm -rf "$work/da/$step/rank0" && cp -r "$work/qs/$step/proc2016" "$work/da/$step/rank0"
done
bytes=$(du -cb "$work"/qs/*/proc2016/*.json | tail -1 | cut -f1)

measure() {  # measure NAME COMMAND...: "seconds peak_kib", the best time of RUNS runs
  local name=$1 best="" rss=0
  shift
  for run in $(seq "${RUNS:-5}"); do
    rm -rf "$work/out_$name"
    /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" -o "$work/out_$name" > "$work/$name.log" 2>&1
    read -r s k < "$work/$name.time"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
    [ "$k" -gt "$rss" ] && rss=$k
  done
  echo "$best $rss"
}

read -r d_s d_k < <(measure dumpcmp "$dumpcmp" compare -tp "$work/qs/step0" -gp "$work/qs/step1")
read -r m_s m_k < <(cd "$work" && measure msprobe $msprobe compare -tp "$work/qs/step0" -gp "$work/qs/step1")
cmp "$work"/out_dumpcmp/compare_result_proc2016_*.csv "$work"/out_msprobe/compare_result_proc2016_*.csv ||
  { echo "the result files differ" >&2; exit 1; }
echo "statistics mode, $((bytes / 1024)) KiB of dump.json + stack.json, rows identical:"
echo "  dumpcmp ${d_s} s, peak ${d_k} KiB; msprobe ${m_s} s, peak ${m_k} KiB"
awk -v d="$d_s" -v m="$m_s" 'BEGIN { printf "  dumpcmp is %.0fx faster\n", m / (d > 0.005 ? d : 0.005) }'

read -r d_s d_k < <(measure dumpcmp_da "$dumpcmp" compare -tp "$work/da/step0" -gp "$work/da/step1" -da)
read -r m_s m_k < <(cd "$work" && measure msprobe_da $msprobe compare -tp "$work/da/step0" -gp "$work/da/step1" -da)
for file in compare_result_rank0 diff_analyze; do
  cmp "$work"/out_dumpcmp_da/${file}_*.json "$work"/out_msprobe_da/${file}_*.json ||
    { echo "the -da files ($file) differ" >&2; exit 1; }
done
echo "-da (first-diff analysis), the check and analysis files identical:"
echo "  dumpcmp ${d_s} s, peak ${d_k} KiB; msprobe ${m_s} s, peak ${m_k} KiB"
awk -v d="$d_s" -v m="$m_s" 'BEGIN { printf "  dumpcmp is %.0fx faster\n", m / (d > 0.005 ? d : 0.005) }'
