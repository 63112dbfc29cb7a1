#!/usr/bin/env bash
# dumpcmp beside msprobe on random dump pairs (tests/data/msprobe_dump/make_random_case.py): for each
# seed, a tensor-mode, a statistics and an md5 run of PyTorch and of MindSpore, compared by both
# tools on this machine (so numpy's OpenBLAS order is this machine's too); every result file must
# be the same bytes. Prints one line per run and the first differing lines; exits 1 on a difference.
# Usage: bench/vs_msprobe_random.sh DUMPCMP MSPROBE_BIN_DIR [FIRST_SEED [LAST_SEED [WORK_DIR]]]
#   MSPROBE_BIN_DIR holds msprobe's CLI and the python with torch, e.g. /tmp/msprobe-peer/bin.
#   FLAGS="-fm" (msprobe's options) are given to both tools; MODES="tensor md5" picks the modes;
#   FRAMEWORKS="cross" compares a MindSpore NPU run with a PyTorch bench (FLAGS="-am");
#   RANKS=N makes rank0..rank<N-1> directories (with all_reduce calls) in place of proc0;
#   DATA_MAPPING=1 renames some bench ops and writes run/mapping.yaml (FLAGS="-dm run/mapping.yaml").
#   Both tools run in the case's directory, so FLAGS may name its files. PEER_PYTHON runs msprobe
#   with another python whose site-packages reach the peer's msprobe (a pandas 1.x or 2.x venv),
#   beside DUMPCMP_FLAGS="--pandas 2 [--numpy 1]" for dumpcmp. MAKER=real has msprobe's own PyTorch
#   dumper write each pair (make_real_case.py, FRAMEWORKS=pytorch; LEVEL=mix, L0 or L1). MAKER=config
#   writes a --config case (make_random_config_case.py; MODES=tensor FRAMEWORKS=pytorch) and gives
#   both tools its config.yaml. MAKER=verl writes a verl train-against-infer case (make_verl_case.py;
#   FRAMEWORKS=pytorch) and gives both tools --consistent_check --backend ${VERL_BACKEND:-fsdp}.
set -uo pipefail
dumpcmp=$(realpath "$1") peer=$2 first=${3:-1} last=${4:-10} work=${5:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
runs=0 differ=0
msprobe_main="import sys; from msprobe.msprobe import main; sys.argv = ['msprobe', 'compare'] + sys.argv[1:]; main()"
for seed in $(seq "$first" "$last"); do
  for mode in ${MODES:-tensor statistics md5}; do
    for framework in ${FRAMEWORKS:-pytorch mindspore}; do
      case=$work/$mode-$framework-$seed
      rm -rf "$case" && mkdir -p "$case"
      extra=()
      if [ "${MAKER:-random}" = real ]; then
        make=("$root/tests/data/msprobe_dump/make_real_case.py" "$case/run" "$seed" "$mode" "${LEVEL:-mix}")
      elif [ "${MAKER:-random}" = verl ]; then
        make=("$root/tests/data/msprobe_dump/make_verl_case.py" "$case/run" "$seed" "$mode" "${VERL_BACKEND:-fsdp}")
        extra=(--consistent_check --backend "${VERL_BACKEND:-fsdp}")
      elif [ "${MAKER:-random}" = config ]; then
        make=("$root/tests/data/msprobe_dump/make_random_config_case.py" "$case/run" "$seed")
        extra=(--config run/config.yaml)
      else
        make=("$root/tests/data/msprobe_dump/make_random_case.py" "$case/run" "$seed" "$mode" \
              "$framework" ${RANKS:-})
      fi
      "$peer/python" "${make[@]}" > "$case/make.log" 2>&1 ||
        { echo "$case: not made"; tail -n 3 "$case/make.log"; exit 1; }
      (cd "$case" && "${PEER_PYTHON:-$peer/python}" -c "$msprobe_main" -tp run/npu -gp run/bench \
        -o msprobe ${FLAGS:-} "${extra[@]}" > msprobe.log 2>&1)
      (cd "$case" && "$dumpcmp" compare -tp run/npu -gp run/bench -o dumpcmp ${FLAGS:-} \
        "${extra[@]}" ${DUMPCMP_FLAGS:-} > dumpcmp.log 2>&1)
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
