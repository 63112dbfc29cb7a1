#!/usr/bin/env bash
# Two dumpcmp builds (a change's before and after) on the same generated runs, every mode: every
# file each writes must be the same, once the second in a file's name (result_<ts>.csv) and the
# run's own values (its time, its command line) are taken out. The proof a restructuring owes.
# Usage: bench/same_outputs.sh OLD_DUMPCMP NEW_DUMPCMP DUMPCMP_GEN WORK_DIR
# OLD_DEVICE / NEW_DEVICE (default cpu): each build's --device for the compares, e.g.
# NEW_DEVICE=thrust-omp to hold a device backend to the cpu's files.
# Exit 0 when every case agrees; each difference is printed.
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2") gen=$(realpath "$3")
rm -rf "$4" && mkdir -p "$4" && work=$(realpath "$4")
"$gen" --out "$work/plain" --ops 40 --specials --noise 0.01 --seed 3 \
  --dtypes float16 float32 bfloat16 int8 int32 >/dev/null
"$gen" --out "$work/fusion" --fusion --ops 12 --max-elements 4096 --seed 4 >/dev/null
for step in 0 1; do  # a dump tree: one device, two steps
  for side in left:npu right:gold; do
    leaf="$work/tree/${side#*:}/20240101120000/0/ge_default_20240101115959_1/1/$step"
    mkdir -p "$leaf" && cp "$work/plain/${side%%:*}"/* "$leaf"/
  done
done
# Batch mode: -m a time directory whose model names are the rules' graphs, -f a directory of rules.
mkdir -p "$work/batch/20240101120000/0/fusion_bench_0/1/0" "$work/batch/rules"
cp "$work/fusion/left"/* "$work/batch/20240101120000/0/fusion_bench_0/1/0/"
cp "$work/fusion/model.json" "$work/batch/rules/"
p=$work/plain f=$work/fusion t=$work/tree s=$(dirname "$0")/../tests/data/msprobe_stats/edge_cases
s=$(realpath "$s")
first_op=$(ls "$p/left" | head -1 | cut -d. -f2)
cases=(
  "network|compare --quiet DEV -m $p/left -g $p/right"
  "network-options|compare --quiet DEV -m $p/left -g $p/right --quantiles --overflow_detection -advisor --threshold CosineSimilarity=0.9999 --html OUT/r.html --hdf5 OUT/r.h5"
  "algorithms|compare --quiet DEV -m $p/left -g $p/right -alg 0,2,5 --max_cmp_size 100"
  "fusion|compare --quiet DEV -m $f/left -g $f/right -f $f/model.json --model-explorer OUT/me"
  "fusion-range|compare --quiet DEV -m $f/left -g $f/right -f $f/model.json -r 1,8,2"
  "mapping|compare --quiet DEV -m $f/left -g $f/right -f $f/model.json --mapping"
  "detail|compare --quiet DEV -m $p/left -g $p/right --op_name $first_op -n 5"
  "tree|compare --quiet DEV --tree -m $t/npu -g $t/gold --hdf5 OUT/t.h5 --mirror"
  "batch|compare --quiet DEV -m $work/batch/20240101120000 -g $f/right -f $work/batch/rules -advisor"
  "plan|compare --quiet DEV -m $p/left -g $p/right --plan-only OUT/plan.jsonl"
  "convert|convert -d $p/left"
  "overflow|overflow -d $p/left"
  "stats|compare_stats --quiet -m $s/npu -g $s/bench"
)
normalise() {  # the run's own values: its time, its command line, its directory
  sed -E "s#$1#OUT#g; s#$old#DUMPCMP#g; s#$new#DUMPCMP#g; s/(result|dumpcmp|mapping|summary|compare_stats_result)_[0-9]{14}/\1_TS/g;
          s/[0-9]+(\.[0-9]+)? s on the [a-z-]+ /T s on the D /g; s/--device [a-z-]+/--device D/g; s/[0-9.]+ MB\/s/R MB\/s/g; s/20[0-9]{2}-[0-9]{2}-[0-9]{2}[ T][0-9:]{8}/DATE/g"
}
bad=0
for c in "${cases[@]}"; do
  name=${c%%|*} args=${c#*|}
  for build in old new; do
    out=$work/out-$name-$build bin=${!build} device_var=${build^^}_DEVICE
    device="--device ${!device_var:-cpu}"
    mkdir -p "$out"
    # shellcheck disable=SC2086
    a_=${args//OUT/$out}
    (cd "$work" && "$bin" ${a_//DEV/$device} -out "$out" >"$out.stdout" 2>"$out.stderr")
    echo $? >"$out.rc"
    if [ "$(cat "$out.rc")" -ge 126 ]; then echo "$name: $bin did not run"; cat "$out.stderr"; bad=1; fi
  done
  a=$work/out-$name-old b=$work/out-$name-new
  listing() { (cd "$1" && find . -type f | sed -E 's/_[0-9]{14}/_TS/g' | sort); }
  if [ "$(listing "$a")" != "$(listing "$b")" ] || ! cmp -s "$a.rc" "$b.rc"; then
    echo "$name: different files or exit codes:"; diff <(listing "$a"; cat "$a.rc") <(listing "$b"; cat "$b.rc")
    bad=1; continue
  fi
  while read -r rel; do
    fa=$(cd "$a" && ls -d ${rel//_TS/_[0-9]*} | head -1) fb=$(cd "$b" && ls -d ${rel//_TS/_[0-9]*} | head -1)
    if [[ $rel == *.h5 ]]; then  # HDF5 attributes name the run: the rows are compared
      cmp_a=$(h5dump -A 0 "$a/$fa" 2>&1 | tail -n +2) cmp_b=$(h5dump -A 0 "$b/$fb" 2>&1 | tail -n +2)
    elif ! grep -Iq . "$a/$fa"; then  # binary (.npy, .bin, .pt, dumps): byte for byte
      cmp_a=$(cksum <"$a/$fa") cmp_b=$(cksum <"$b/$fb")
    else
      cmp_a=$(normalise "$a" <"$a/$fa" | grep -v "^dumpcmp run: ")
      cmp_b=$(normalise "$b" <"$b/$fb" | grep -v "^dumpcmp run: ")
    fi
    if [ "$cmp_a" != "$cmp_b" ]; then
      echo "$name: $rel differs:"
      diff <(echo "$cmp_a" | fold -w 160) <(echo "$cmp_b" | fold -w 160) | head -6
      bad=1
    fi
  done < <(listing "$a")
  for stream in stdout stderr; do
    if [ "$(normalise "$a" <"$a.$stream")" != "$(normalise "$b" <"$b.$stream")" ]; then
      echo "$name: $stream differs"; diff <(normalise "$a" <"$a.$stream") <(normalise "$b" <"$b.$stream") | head -5; bad=1
    fi
  done
  echo "$name: $(listing "$a" | wc -l) files compared"
done
[ $bad = 0 ] && echo "same outputs: ${#cases[@]} cases" || echo "outputs differ"
exit $bad
