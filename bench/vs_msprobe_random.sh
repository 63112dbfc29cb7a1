#!/usr/bin/env bash
# dumpcmp beside msprobe on random dump pairs (tests/data/msprobe_dump/make_random_case.py): for each
# seed, a tensor-mode, a statistics and an md5 run of PyTorch and of MindSpore, compared by both
# tools on this machine (so numpy's OpenBLAS order is this machine's too); every result file must
# be the same bytes. Prints one line per run and the first differing lines; exits 1 on a difference.
# Usage: bench/vs_msprobe_random.sh DUMPCMP MSPROBE_BIN_DIR [FIRST_SEED [LAST_SEED [WORK_DIR]]]
#   MSPROBE_BIN_DIR holds msprobe's CLI and the python with torch, e.g. /tmp/msprobe-peer/bin.
set -uo pipefail
dumpcmp=$(realpath "$1") peer=$2 first=${3:-1} last=${4:-10} work=${5:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
runs=0 differ=0
for seed in $(seq "$first" "$last"); do
  for mode in tensor statistics md5; do
    for framework in pytorch mindspore; do
      case=$work/$mode-$framework-$seed
      rm -rf "$case" && mkdir -p "$case"
      "$peer/python" "$root/tests/data/msprobe_dump/make_random_case.py" "$case/run" "$seed" "$mode" \
        "$framework" > "$case/make.log" 2>&1 || { echo "$case: not made"; tail -n 3 "$case/make.log"; exit 1; }
      (cd "$case" && "$peer/msprobe" compare -tp run/npu -gp run/bench -o msprobe > msprobe.log 2>&1)
      "$dumpcmp" compare -tp "$case/run/npu" -gp "$case/run/bench" -o "$case/dumpcmp" > "$case/dumpcmp.log" 2>&1
      theirs=$(ls "$case"/msprobe/compare_result_*.csv 2>/dev/null)
      ours=$(ls "$case"/dumpcmp/compare_result_*.csv 2>/dev/null)
      runs=$((runs + 1))
      if [ -z "$theirs" ] && [ -z "$ours" ]; then
        echo "$mode $framework seed $seed: no result from either"
      elif [ -n "$theirs" ] && [ -n "$ours" ] && cmp -s "$theirs" "$ours"; then
        echo "$mode $framework seed $seed: same ($(($(wc -l < "$ours") - 1)) rows)"
      else
        differ=$((differ + 1))
        echo "$mode $framework seed $seed: DIFFERENT ($case)"
        diff "$theirs" "$ours" | head -n 4 | cut -c1-400
      fi
    done
  done
done
echo "$runs runs, $differ different"
[ "$differ" -eq 0 ]
