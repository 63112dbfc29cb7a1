#!/usr/bin/env bash
# dumpcmp beside msprobe on msprobe's tensor-mode compare (the .pt files of a training run), same
# machine, one run: a generated run of GIB (5) GiB of .pt files over both sides
# (bench/msprobe_tensor_run.py, written once into WORK_DIR with the peer's torch). The files
# are read once beforehand so that every tool reads them from the page cache; the floor is reading
# them (cat, best of 3). Both tools' result files must be equal byte for byte (the timestamp in the
# name aside); then dumpcmp's best of RUNS (3) wall times and peak RSS, and msprobe's one run.
# Usage: bench/vs_msprobe_tensor.sh DUMPCMP MSPROBE_BIN_DIR [WORK_DIR] [GIB]
#   MSPROBE_BIN_DIR holds msprobe's CLI and the python with torch, e.g. /tmp/msprobe-peer/bin.
set -euo pipefail
dumpcmp=$(realpath "$1") peer=$2 work=${3:-$(mktemp -d)} gib=${4:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
"$dumpcmp" --version | grep '^SIMD'
run=$work/run_$gib
[ -f "$run/bench/proc0/dump.json" ] || "$peer/python" "$root/bench/msprobe_tensor_run.py" "$run" "$gib"
bytes=$(du -cb "$run"/*/proc0/dump_tensor_data | tail -1 | cut -f1)
files=$(find "$run" -name '*.pt' | wc -l)

best_of() {  # best_of N COMMAND...: "seconds peak_kib" of the fastest of N runs
  local n=$1 best="" rss=0
  shift
  for _ in $(seq "$n"); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/log" 2>&1
    read -r s k < "$work/time"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; fi
    [ "$k" -gt "$rss" ] && rss=$k
  done
  echo "$best $rss"
}

read -r f_s _ < <(best_of 3 sh -c "find '$run' -name '*.pt' -exec cat {} + > /dev/null")
read -r d_s d_k < <(best_of "${RUNS:-3}" sh -c "rm -rf '$work/out_dumpcmp' && '$dumpcmp' compare -tp '$run/npu' -gp '$run/bench' -o '$work/out_dumpcmp'")
rm -rf "$work/out_msprobe"
read -r m_s m_k < <(cd "$work" && best_of 1 "$peer/msprobe" compare -tp "$run/npu" -gp "$run/bench" -o "$work/out_msprobe")
cmp "$work"/out_dumpcmp/compare_result_proc0_*.csv "$work"/out_msprobe/compare_result_proc0_*.csv ||
  { echo "the result files differ" >&2; exit 1; }
rows=$(($(wc -l < "$(ls "$work"/out_dumpcmp/compare_result_proc0_*.csv)") - 1))
echo "tensor mode, $files .pt files, $((bytes >> 20)) MiB, $rows rows identical:"
echo "  reading the files (cat) ${f_s} s; dumpcmp ${d_s} s, peak ${d_k} KiB; msprobe ${m_s} s, peak ${m_k} KiB"
awk -v d="$d_s" -v m="$m_s" -v f="$f_s" -v b="$bytes" 'BEGIN {
  printf "  dumpcmp is %.0fx faster than msprobe, %.2fx the time of reading (%.2f GB/s; msprobe %.2f GB/s)\n",
    m / d, d / f, b / d / 1e9, b / m / 1e9 }'
