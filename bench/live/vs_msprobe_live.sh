#!/usr/bin/env bash
# dumpcmp.live beside msprobe on random PyTorch runs (random_run.py): for each seed and task
# (tensor, statistics), msprobe dumps the NPU run (L0, forward and backward); then the bench run is
# dumped by msprobe (forward and backward; DATA_MODE=forward: forward only) and compared by
# `msprobe compare`, and run again under dumpcmp.live, which compares it as it runs and writes its
# result. Both result files must be the same bytes. Prints one line per run with the times (msprobe's bench dump + compare, against the
# live run), exits 1 on a difference.
# Usage: bench/live/vs_msprobe_live.sh MSPROBE_BIN_DIR [FIRST_SEED [LAST_SEED [WORK_DIR]]]
#   MSPROBE_BIN_DIR holds msprobe's CLI and the python with torch (e.g. /tmp/msprobe-peer/bin);
#   the dumpcmp module is taken from PYTHONPATH (default: build/python). ROWS=N gives every run N
#   input rows (a timing run); TASKS="tensor" picks the tasks (tensor, statistics, md5).
set -uo pipefail
peer=$1 first=${2:-1} last=${3:-10} work=${4:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/../.." && pwd)
export PYTHONPATH=${PYTHONPATH:-$root/build/python}
runs=0 differ=0
for seed in $(seq "$first" "$last"); do
  for task in ${TASKS:-tensor statistics}; do
    case=$work/$task-$seed
    rm -rf "$case" && mkdir -p "$case"
    run() { "$peer/python" "$root/bench/live/random_run.py" "$case" "$seed" "$task" "$1" ${ROWS:-} 2>>"$case/log" | tail -1; }
    run npu > /dev/null
    dump=$(run bench)
    start=$(date +%s.%N)
    "$peer/msprobe" compare -tp "$case"/npu/step0/*/dump.json -gp "$case"/bench/step0/*/dump.json \
      -o "$case/msprobe" >> "$case/log" 2>&1
    compare=$(echo "$(date +%s.%N) - $start" | bc)
    live=$(run live)
    runs=$((runs + 1))
    if cmp -s "$case"/msprobe/compare_result_*.csv "$case"/live/compare_result_*.csv; then
      printf "same   %-10s seed %-4s msprobe %s + compare %.3f s; %s\n" "$task" "$seed" "$dump" "$compare" "$live"
    else
      differ=$((differ + 1))
      echo "DIFFER $task seed $seed ($case)"
      diff "$case"/msprobe/compare_result_*.csv "$case"/live/compare_result_*.csv | head -4
    fi
  done
done
echo "$runs runs, $differ differ"
[ "$differ" -eq 0 ]
