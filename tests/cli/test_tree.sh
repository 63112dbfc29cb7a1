#!/usr/bin/env bash
# Whole runs: compare --tree over generated dump trees (two devices with their own time
# directories and stamps, steps 0|5|10, an init graph, stray files, a lost dump file, a step
# missing on one side), leaf selection, -f naming the graph, msaccucmp's batch mode, and --resume
# after SIGKILL at random points. Every leaf's result must equal the one-leaf compare of that pair.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"

for s in 0 5 10; do "$gen" --out "g$s" --ops 12 --seed "$s" --noise 0.01 > /dev/null; done
fill() {  # directory, source
  mkdir -p "$1" && cp "$2"/* "$1"/
}
for s in 0 5 10; do
  fill "npu/20240101120000/0/ge_default_20240101115959_1/1/$s" "g$s/left"
  fill "npu/20240101120007/1/ge_default_20240101120006_1/1/$s" "g$s/left"
  fill "gold/20230101120000/0/ge_default_20230101115959_1/1/$s" "g$s/right"
  [ "$s" = 10 ] || fill "gold/20230101120009/1/ge_default_20230101120008_1/1/$s" "g$s/right"
done
fill npu/20240101120000/0/ge_default_20240101115959_2/2/0 g0/left  # the init graph
echo notes > npu/README.txt
echo junk > npu/20240101120000/0/.DS_Store
rm "$(ls -d npu/20240101120000/0/ge_default_20240101115959_1/1/5/* | head -n 1)"  # a lost dump

# --- The whole tree.
set +e
"$dumpcmp" compare --tree -m npu -g gold -out o1 --device cpu > o1.out 2> o1.err
code=$?
set -e
[ "$code" = 2 ] || fail "tree with leaves lacking a golden: exit $code"
grep -q "npu/README.txt: a file outside any dump directory; skipped" o1.err || fail "stray file: $(cat o1.err)"
grep -q "\.DS_Store" o1.err || fail "stray file in a device directory"
grep -q "paired with ge_default_20230101115959_1 by graph id 1" o1.err || fail "graph-id pairing"
[ "$(grep -c '^dumpcmp: \[' o1.out)" = 7 ] || fail "one console line per leaf: $(cat o1.out)"
grep -q "^dumpcmp: 7 leaves: 5 compared, 0 failed, 2 without a golden leaf" o1.out || fail "$(cat o1.out)"
[ "$(wc -l < o1/summary.csv)" = 8 ] || fail "summary lines"
head -n 1 o1/summary.csv | grep -q '^Leaf,Device,Graph,ModelId,Step,Golden,Status,Rows,Compared,OutsideTolerance,NotCompared,FirstDivergentOp,ResultFile,Message$' ||
  fail "summary header"
grep -q '^20240101120007/1/ge_default_20240101120006_1/1/10,1,.*,no golden,' o1/summary.csv || fail "missing step"
grep -q '^20240101120000/0/ge_default_20240101115959_2/2/0,0,.*,no golden,' o1/summary.csv || fail "init graph"
# Each leaf equals the one-leaf compare of its pair.
while IFS=, read -r leaf device graph id step golden status rows _ _ _ _ result _; do
  [ "$status" = compared ] || continue
  "$dumpcmp" compare -m "npu/$leaf" -g "$golden" -out "one/$leaf" --device cpu --quiet 2> /dev/null || true
  cmp "o1/$result" "one/$leaf"/result_*.csv > /dev/null || fail "$leaf differs from its one-leaf compare"
  [[ "$result" == "${device}_${graph}_${step}_result_"??????????????.csv ]] || fail "name $result"
done < <(tail -n +2 o1/summary.csv)
lost_rows=$(grep -c "There is no" o1/0_ge_default_20240101115959_1_5_result_*.csv || true)
[ "$lost_rows" -ge 1 ] || fail "the lost dump file is not a row"
echo "tree: 7 leaves, results equal to one-leaf compares"
# The index: one matrix per graph id, every link a result file, the leaves without golden grey.
grep -q '<h2>graph 1 (ge_default_20240101115959_1, ge_default_20240101120006_1)</h2>' o1/index.html ||
  fail "index: graph 1 matrix"
grep -q '<h2>graph 2 (ge_default_20240101115959_2)</h2>' o1/index.html || fail "index: init graph"
[ "$(grep -o 'class="gone"' o1/index.html | wc -l)" = 2 ] || fail "index: grey cells"
for link in $(grep -o 'href="[^"]*"' o1/index.html | sed 's/href="//; s/"$//'); do
  [ -f "o1/$link" ] || fail "index links a missing $link"
done
[ "$(grep -o 'href=' o1/index.html | wc -l)" = 5 ] || fail "index: one link per compared leaf"
grep -q '<svg class="trend"' o1/index.html || fail "index: no trend chart"

# --- --mirror: the same results in a tree like the dump's.
"$dumpcmp" compare --tree -m npu -g gold -out om --mirror --device cpu --quiet 2> /dev/null || true
while IFS=, read -r leaf _ _ _ _ _ status _ _ _ _ _ result _; do
  [ "$status" = compared ] || continue
  [[ "$result" == "$leaf"/result_??????????????.csv ]] || fail "--mirror name $result"
  cmp "om/$result" o1/"$(grep "^$leaf," o1/summary.csv | cut -d, -f13)" > /dev/null || fail "--mirror $leaf"
done < <(tail -n +2 om/summary.csv)
grep -q "href=\"20240101120000/0/ge_default_20240101115959_1/1/0/result_" om/index.html || fail "--mirror links"
echo "--mirror: same results in the dump's tree"

# --- --hdf5: one group per leaf (its rows equal the leaf's own HDF5) and trend cubes.
"$dumpcmp" compare --tree -m npu -g gold -out oh --hdf5 run.h5 --device cpu --quiet 2> /dev/null || true
if command -v h5ls > /dev/null; then
  [ "$(h5ls run.h5/leaves | wc -l)" = 5 ] || fail "hdf5: $(h5ls run.h5/leaves)"
  leaf_h5=$(ls oh/0_ge_default_20240101115959_1_5_result_*.h5)
  cmp <(h5dump -d /results -y -m '%.17g' "$leaf_h5" | grep -v '^HDF5\|DATASET "/' ) \
      <(h5dump -d /leaves/0_ge_default_20240101115959_1_5/results -y -m '%.17g' run.h5 |
        grep -v '^HDF5\|DATASET "/') > /dev/null || fail "hdf5 leaf group differs from the leaf's file"
  h5ls -r run.h5/trends | grep -Eq '^/graph_1/CosineSimilarity +Dataset \{[0-9]+, 3, 2\}' ||
    fail "hdf5 trends: $(h5ls -r run.h5/trends)"
  h5dump -d /trends/graph_1/steps run.h5 | grep -q '"10"' || fail "hdf5 steps axis"
  echo "hdf5: 5 leaf groups, trend cubes tensor x step x device"
else
  echo "hdf5: h5ls absent, not checked"
fi

# --- Selection, and -f naming the computational graph (init graph left out).
"$dumpcmp" compare --tree -m npu -g gold -out o2 --steps "0|5" --devices 0 --device cpu --quiet 2> /dev/null || true
[ "$(tail -n +2 o2/summary.csv | cut -d, -f1 | tr '\n' ' ')" = \
  "20240101120000/0/ge_default_20240101115959_1/1/0 20240101120000/0/ge_default_20240101115959_1/1/5 20240101120000/0/ge_default_20240101115959_2/2/0 " ] ||
  fail "selection: $(cat o2/summary.csv)"
echo '{"graph":[{"name":"ge_default_20240101115959_1","op":[]}]}' > graph.json
"$dumpcmp" compare --tree -m npu -g gold -f graph.json -out o3 --device cpu --quiet 2> /dev/null || true
[ "$(tail -n +2 o3/summary.csv | grep -c ',compared,')" = 5 ] || fail "-f graph: $(cat o3/summary.csv)"
grep -q "_2/2/0" o3/summary.csv && fail "-f graph kept the init graph"
# A GE graph dump: the graph holding the data iterator is the computational graph, the init
# graph beside it is left out.
cat > ge_proto_00001_Build.txt << 'PBTXT'
graph {
  name: "ge_default_20240101115959_2"
  op { name: "init_var" type: "VariableV2" }
}
graph {
  name: "ge_default_20240101115959_1"
  op { name: "IteratorV2" type: "IteratorV2" }
  op { name: "add1" type: "Add" input: "IteratorV2:0" }
}
PBTXT
"$dumpcmp" compare --tree -m npu -g gold -f ge_proto_00001_Build.txt -out o5 --device cpu --quiet 2> /dev/null || true
cmp <(cut -d, -f1,7 o3/summary.csv) <(cut -d, -f1,7 o5/summary.csv) || fail "GE graph: $(cat o5/summary.csv)"
set +e
"$dumpcmp" compare --tree -m npu -g gold --steps "3-1" -out o4 2> o4.err
code=$?
set -e
[ "$code" = 1 ] && grep -q 'part "3-1"' o4.err || fail "bad --steps: exit $code $(cat o4.err)"
echo "selection and graph filter"

# --- msaccucmp's batch mode on the fusion-rule case: -m a time directory, -f a JSON folder.
case_dir=$root/tests/data/msaccucmp_fusion/basic
graph=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["graph"][0]["name"])' "$case_dir/model.json")
for dev in 0 1; do for s in 5 10; do fill "batch/20240101120000/$dev/$graph/1/$s" "$case_dir/left"; done; done
mkdir rules && cp "$case_dir/model.json" rules/
# A rule file whose graph names no model_name directory and has no graph id: msaccucmp aborts the
# batch; dumpcmp compares the others and names it on stderr, in the log and in summary.csv.
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); m["graph"][0]["name"]="lonely_graph"
json.dump(m, open(sys.argv[2], "w"))' "$case_dir/model.json" rules/lonely.json
echo notes > batch/20240101120000/notes.txt
"$dumpcmp" compare -m batch/20240101120000 -g "$case_dir/right" -f rules -out ob --device cpu > ob.out 2> ob.err ||
  fail "batch mode: $(cat ob.err)"
"$dumpcmp" compare -m "$case_dir/left" -g "$case_dir/right" -f "$case_dir/model.json" -out ob1 --device cpu --quiet 2> /dev/null
[ "$(ls ob | grep -v '^dumpcmp_.*\.log$\|^summary\.csv$' | sed 's/_result_.*//' | tr '\n' ' ')" = "0_${graph}_5 1_${graph}_5 " ] ||
  fail "batch files: $(ls ob)"
grep -q "notes.txt" ob/dumpcmp_*.log || fail "batch mode: its warnings are not in the log"
unused="rules/lonely.json: not used: graph lonely_graph names no model_name directory of $(cd batch/20240101120000 && pwd -P) and has no graph id to match one by"
grep -qF "dumpcmp: warning: $(pwd -P)/$unused" ob.err || fail "unused rule file not named: $(cat ob.err)"
grep -qF "$unused" ob/dumpcmp_*.log || fail "unused rule file not in the log"
grep -qF ",,lonely_graph,,,,rule file not used,,,,,,,$(pwd -P)/rules/lonely.json: graph lonely_graph names" ob/summary.csv ||
  fail "unused rule file not in summary.csv: $(cat ob/summary.csv)"
[ "$(grep -c ',compared,' ob/summary.csv)" = 2 ] || fail "batch summary leaves: $(cat ob/summary.csv)"
for f in ob/*_result_*.csv; do cmp "$f" ob1/result_*.csv > /dev/null || fail "batch leaf $f differs"; done
grep -q "notes.txt: not a device directory; skipped" ob.err || fail "batch stray file"
grep -q "compares step 5 (the string-largest) only; not compared: 10" ob.err || fail "batch step warning"
set +e
"$dumpcmp" compare -m batch -g "$case_dir/right" -f rules -out ob2 2> ob2.err
code=$?
set -e
[ "$code" = 2 ] && grep -q "$(cd batch && pwd -P) path must end with a timestamp." ob2.err || fail "batch -m check: $(cat ob2.err)"
set +e
"$dumpcmp" compare -m batch/20240101120000 -g "$case_dir/right" -f rules -op conv1 -out ob3 2> ob3.err
code=$?
set -e
[ "$code" = 1 ] && grep -q "the conv1 single operator comparison is not supported for batch network comparison." ob3.err ||
  fail "batch -op: $(cat ob3.err)"
echo "batch mode: 2 files equal to one-leaf compares, an unused rule file named, refusals"
# The same tree through --tree with the rule and one flat golden folder: every step of every device.
"$dumpcmp" compare --tree -m batch -g "$case_dir/right" -f "$case_dir/model.json" -out otf --device cpu --quiet 2> /dev/null
[ "$(ls otf/*_result_*.csv | wc -l)" = 4 ] || fail "--tree -f: $(ls otf)"
for f in otf/*_result_*.csv; do cmp "$f" ob1/result_*.csv > /dev/null || fail "--tree -f leaf $f differs"; done
echo "--tree -f with a flat golden folder: 4 leaves equal to the one-leaf compare"

# --- Resume after SIGKILL at random points: the same files, rows and summary as a whole run.
# Leaves of 20 MB of payload: each runs alone, not in a group of small leaves.
"$gen" --out rsrc --ops 10 --inputs 0 --min-elements 262144 --max-elements 262144 --dtypes float32 \
  --noise 0.01 > /dev/null
for s in $(seq 0 15); do
  fill "rnpu/20240101120000/0/net_1/1/$s" rsrc/left
  fill "rgold/20240101120000/0/net_1/1/$s" rsrc/right
done
"$dumpcmp" compare --tree -m rnpu -g rgold -out full --device cpu --quiet 2> /dev/null
strip() {  # the result files and summary without their time stamps
  (cd "$1" && for f in *_result_*.csv; do echo "== ${f%_result_*}"; cat "$f"; done
   sed -E 's/_result_[0-9]{14}\.csv/_result_TS.csv/' summary.csv)
}
strip full > full.txt
for attempt in 1 2 3; do
  rm -rf part
  "$dumpcmp" compare --tree -m rnpu -g rgold -out part --device cpu --quiet 2> /dev/null &
  pid=$!
  sleep "$(printf '0.%03d' $((RANDOM % 300 + 10)))"
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  done_before=$( (find part -name '*_result_*.csv' 2> /dev/null || true) | wc -l)
  if [ -e part/summary.csv ] && [ "$done_before" -lt 16 ]; then fail "summary before the end"; fi
  "$dumpcmp" compare --tree -m rnpu -g rgold -out part --device cpu --resume > resume.out 2> /dev/null
  strip part > part.txt
  cmp full.txt part.txt > /dev/null || fail "attempt $attempt (killed after $done_before leaves): resumed run differs"
  if find part -name '*.partial' | grep -q .; then fail "a partial file is left"; fi
  resumed=$(grep -c "(resumed)" resume.out || true)
  [ "$resumed" -le "$done_before" ] || fail "resumed more leaves than were finished"
  echo "resume attempt $attempt: killed after $done_before leaves, $resumed taken from the journal, outputs equal"
done
set +e
"$dumpcmp" compare --tree -m rnpu -g rgold -out part --device cpu --resume -alg 0 > /dev/null 2> other.err
code=$?
set -e
[ "$code" = 2 ] && grep -q "the journal is of another run" other.err || fail "resume with other options: $(cat other.err)"
echo "resume refuses another run's journal"

# --- One run per output directory: a run into a directory that another run is writing into is
# refused, naming the directory and the holder, plain and over MPI ranks; the lock a killed run
# leaves does not block --resume. The holder is a live compare waiting for more dumps.
"$dumpcmp" compare -m rsrc/left -g rsrc/right -out part --device cpu --follow --idle 60 --quiet \
  > /dev/null 2>&1 &
holder=$!
for _ in $(seq 300); do [ -s part/.dumpcmp.lock ] && break; sleep 0.1; done
[ -s part/.dumpcmp.lock ] || fail "the live compare took no lock"
refused() {  # log: the second run was refused with exit 2, naming the directory and the holder
  [ "$1" = 2 ] && grep -q "part: another run is writing into this output directory (dumpcmp pid $holder on .*, started [0-9]\{14\})" "$2" ||
    fail "a second run into a held directory: exit $1 $(cat "$2")"
}
set +e
"$dumpcmp" compare --tree -m rnpu -g rgold -out part --device cpu --resume > second.out 2> second.err
refused $? second.err
"$dumpcmp" compare -m rsrc/left -g rsrc/right -out part --device cpu > second.out 2> second.err
refused $? second.err
set -e
if "$dumpcmp" --version | grep "^scale-out: MPI" > /dev/null && command -v mpirun > /dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
  here=$(cd "$(dirname "$0")" && pwd)
  export LSAN_OPTIONS="suppressions=$here/lsan_mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
  set +e
  mpirun --oversubscribe --bind-to none -np 2 "$dumpcmp" compare --tree -m rnpu -g rgold -out part --device cpu \
    --resume > second.out 2> second.err
  refused $? second.err
  set -e
  echo "a held output directory: refused over 2 MPI ranks too"
else
  echo "a held output directory over MPI ranks: not checked (no MPI here)"
fi
[ "$(strip part)" = "$(cat full.txt)" ] || fail "the refused runs changed the held directory"
kill -9 "$holder"
wait "$holder" 2> /dev/null || true
[ -e part/.dumpcmp.lock ] || fail "the killed holder's lock file is gone: the next check proves nothing"
"$dumpcmp" compare --tree -m rnpu -g rgold -out part --device cpu --resume --quiet 2> resumed.err ||
  fail "resume after the holder was killed: $(cat resumed.err)"
[ ! -e part/.dumpcmp.lock ] || fail "a finished run left its lock file"
echo "one run per output directory: a second run refused naming the holder; a dead holder's lock does not block --resume"

# --- Statistics dumps (real MindSpore statistic.csv, S1-S6): each leaf as compare_stats does it.
stats=$root/../shared/realdata/msinsight/test/smoke-test/msprobe_smoke/att_smoke-my_fix_branch/att_smoke-my_fix_branch/Testcases1/msprobe_ms_compare/test_data/ms_graph_statistic_compare_data
if [ -d "$stats/dump_data0" ]; then
  "$dumpcmp" compare --tree -m "$stats/dump_data0" -g "$stats/dump_data1" -out os --quiet 2> os.err ||
    fail "stats tree: $(cat os.err)"
  [ "$(tail -n +2 os/summary.csv | grep -c ',compared,')" = 3 ] || fail "stats leaves: $(cat os/summary.csv)"
  for s in 0 1 2; do
    "$dumpcmp" compare_stats -m "$stats/dump_data0/rank_0/mnist/0/$s/statistic.csv" \
      -g "$stats/dump_data1/rank_0/mnist/0/$s/statistic.csv" -out "os1/$s" > /dev/null
    cmp os/rank_0_mnist_${s}_stats_result_*.csv "os1/$s"/compare_stats_result_*.csv > /dev/null ||
      fail "stats leaf $s differs from compare_stats"
  done
  echo "statistics tree: 3 leaves equal to compare_stats"
else
  echo "statistics tree: real data absent, not checked"
fi
