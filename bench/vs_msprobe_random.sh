#!/usr/bin/env bash
# dumpcmp beside msprobe on random dump pairs (tests/data/msprobe_dump/make_random_case.py): for each
# seed, a tensor-mode, a statistics and an md5 run of PyTorch and of MindSpore, compared by both
# tools on this machine (so numpy's OpenBLAS order is this machine's too); every result file must
# be the same bytes. Prints one line per run and the first differing lines; exits 1 on a difference.
# Usage: bench/vs_msprobe_random.sh DUMPCMP MSPROBE_BIN_DIR [FIRST_SEED [LAST_SEED [WORK_DIR]]]
#   MSPROBE_BIN_DIR holds msprobe's CLI and the python with torch, e.g. /tmp/msprobe-peer/bin.
#   FLAGS="-fm" (msprobe's options) are given to both tools; MODES="tensor md5" picks the modes;
#   RANKS=N makes rank0..rank<N-1> directories (with all_reduce calls) in place of proc0.
set -uo pipefail
dumpcmp=$(realpath "$1") peer=$2 first=${3:-1} last=${4:-10} work=${5:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
runs=0 differ=0
for seed in $(seq "$first" "$last"); do
  for mode in ${MODES:-tensor statistics md5}; do
    for framework in pytorch mindspore; do
      case=$work/$mode-$framework-$seed
      rm -rf "$case" && mkdir -p "$case"
      "$peer/python" "$root/tests/data/msprobe_dump/make_random_case.py" "$case/run" "$seed" "$mode" \
        "$framework" ${RANKS:-} > "$case/make.log" 2>&1 || { echo "$case: not made"; tail -n 3 "$case/make.log"; exit 1; }
      (cd "$case" && "$peer/msprobe" compare -tp run/npu -gp run/bench -o msprobe ${FLAGS:-} > msprobe.log 2>&1)
      "$dumpcmp" compare -tp "$case/run/npu" -gp "$case/run/bench" -o "$case/dumpcmp" ${FLAGS:-} > "$case/dumpcmp.log" 2>&1
      runs=$((runs + 1))
      # Each of msprobe's files (its timestamps cut from the names) against dumpcmp's.
      names() { ls "$1" 2>/dev/null | grep -v '^dumpcmp_' | sed -E 's/_[0-9]{14,}(\.[a-z]+)$/\1/' | sort; }
      if [ "$(names "$case/msprobe")" != "$(names "$case/dumpcmp")" ]; then
        differ=$((differ + 1))
        echo "$mode $framework seed $seed: DIFFERENT files ($case): $(names "$case/msprobe" | tr '\n' ' ')/ $(names "$case/dumpcmp" | tr '\n' ' ')"
        continue
      fi
      same=0 files=0
      for theirs in "$case"/msprobe/*; do
        [ -e "$theirs" ] || continue
        stem=$(basename "$theirs" | sed -E 's/_[0-9]{14,}(\.[a-z]+)$//')
        ours=$(ls "$case"/dumpcmp/"$stem"_[0-9]* | head -n 1)
        files=$((files + 1))
        if cmp -s "$theirs" "$ours"; then
          same=$((same + 1))
        else
          echo "$mode $framework seed $seed: DIFFERENT $(basename "$theirs") ($case)"
          diff "$theirs" "$ours" | head -n 4 | cut -c1-400
        fi
      done
      [ "$same" -eq "$files" ] || differ=$((differ + 1))
      echo "$mode $framework seed $seed: $same of $files files the same"
    done
  done
done
echo "$runs runs, $differ different"
[ "$differ" -eq 0 ]
