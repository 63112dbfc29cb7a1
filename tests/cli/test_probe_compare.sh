#!/usr/bin/env bash
# End to end: `dumpcmp compare -tp -gp -o` writes byte for byte what msprobe 26.2.0's compare wrote
# (tests/data/msprobe_dump, see its README) on msprobe's own quick-start dump (directories and
# dump.json files) and on the generated cases, statistics, md5 and tensor mode; then bad inputs: a
# broken pair fails alone, a data file that cannot be read fails its row alone, each with the file
# named, and refused runs say why.
set -euo pipefail
# EucDist's last digits follow OpenBLAS's summation order: the one msprobe had (math/blas_dot.hpp).
export OPENBLAS_NUM_THREADS=2 DUMPCMP_BLAS_DOT=skylakex
dumpcmp=$1 root=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
data="$root/tests/data/msprobe_dump"

# same RESULT EXPECTED: equal bytes (EXPECTED may be gzipped).
same() {
  if [[ $2 == *.gz ]]; then gzip -dc "$2" > "$work/expected.csv"; else cp "$2" "$work/expected.csv"; fi
  cmp -s "$1" "$work/expected.csv" || { diff "$1" "$work/expected.csv" | head -5; fail "$1 differs from $2"; }
}
# one OUT_DIR NAME: the one file OUT_DIR/NAME_<YYYYmmddHHMMSS>.csv.
one() {
  local files=("$1/$2"_[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9].csv)
  [[ ${#files[@]} == 1 && -f ${files[0]} ]] || fail "no single $2_<timestamp>.csv in $1: $(ls "$1")"
  echo "${files[0]}"
}

# msprobe's quick-start dump: a GPU ResNet-50 run, steps 0 and 1, one proc directory each.
for step in step0 step1; do
  mkdir -p "$work/qs/$step/proc2016"
  for f in dump.json stack.json; do
    gzip -dc "$data/quick_start/$step/proc2016/$f.gz" > "$work/qs/$step/proc2016/$f"
  done
done
"$dumpcmp" compare -tp "$work/qs/step0" -gp "$work/qs/step1" -o "$work/out_qs" > "$work/qs.log"
same "$(one "$work/out_qs" compare_result_proc2016)" "$data/expected/quick_start_step0_step1_proc2016.csv.gz"
# The same pair as two dump.json files: no suffix in the name, the stack beside the NPU file.
"$dumpcmp" compare -tp "$work/qs/step0/proc2016/dump.json" -gp "$work/qs/step1/proc2016/dump.json" \
  -o "$work/out_files" > /dev/null
same "$(one "$work/out_files" compare_result)" "$data/expected/quick_start_step0_step1_proc2016.csv.gz"

# The generated cases (the tensor-mode ones are committed: torch.save wrote their .pt files).
python3 "$data/make_cases.py" "$work/cases"
cp -r "$data/tensor_cases/." "$work/cases/"
# msprobe's own MindSpore statistics dump (its unit tests' mindspore_data), against itself.
for side in npu bench; do
  mkdir -p "$work/cases/mindspore_ut/$side/rank0"
  for f in dump.json stack.json; do
    gzip -dc "$data/mindspore_ut/$f.gz" > "$work/cases/mindspore_ut/$side/rank0/$f"
  done
done
for expected in "$data"/expected/*.csv; do
  name=$(basename "$expected" .csv)  # <case>_<rank or proc dir>
  case=${name%_*} dir=${name##*_}
  out="$work/out_$case"
  [[ -d $out ]] || "$dumpcmp" compare -tp "$work/cases/$case/npu" -gp "$work/cases/$case/bench" -o "$out" > /dev/null
  same "$(one "$out" "compare_result_$dir")" "$expected"
done

# --consistent_check (verl/, made by make_verl_case.py): a verl training run's FSDP or Megatron
# dump against its inference run's, every mode, as msprobe wrote them.
for expected in "$data"/verl/expected/*.csv; do
  case=$(basename "$expected" .csv)
  "$dumpcmp" compare -tp "$data/verl/$case/npu" -gp "$data/verl/$case/bench" -o "$work/out_verl_$case" \
    --consistent_check --backend "${case%%_*}" > /dev/null
  same "$(one "$work/out_verl_$case" compare_result_rank0)" "$expected"
done
# Tensor mode on the device path (thrust-omp, where it is built): the same files, through a 1 MiB
# device budget (pairs staged a few at a time) and 2 threads.
if "$dumpcmp" --version | grep thrust-omp > /dev/null; then
  for expected in "$data"/expected/tensor*.csv; do
    name=$(basename "$expected" .csv)
    case=${name%_*} dir=${name##*_}
    out="$work/out_omp_$case"
    [[ -d $out ]] || "$dumpcmp" compare -tp "$work/cases/$case/npu" -gp "$work/cases/$case/bench" \
      -o "$out" --device thrust-omp -j 2 --device-memory 1 > /dev/null 2>&1
    same "$(one "$out" "compare_result_$dir")" "$expected"
  done
else
  echo "probe compare: thrust-omp not built: tensor mode's device path not checked"
fi

# -fm: rows paired by msprobe's queue walk on names without call numbers (fuzzy/). msprobe ran on
# an AMD Zen 5, whose OpenBLAS sums EucDist with its Haswell kernel.
for expected in "$data"/fuzzy/*.csv; do
  name=$(basename "$expected" .csv)
  case=${name%_*} dir=${name##*_}
  out="$work/out_fm_$case"
  [[ -d $out ]] || DUMPCMP_BLAS_DOT=haswell "$dumpcmp" compare -tp "$work/cases/$case/npu" \
    -gp "$work/cases/$case/bench" -o "$out" -fm > /dev/null
  same "$(one "$out" "compare_result_$dir")" "$expected"
done
# In statistics mode msprobe 26.2.0's -fm stops on an unmatched row and shifts a None argument's
# cells: dumpcmp writes no file for the pair and says why.
for case in nomatch mixed; do
  "$dumpcmp" compare -tp "$work/cases/$case/npu" -gp "$work/cases/$case/bench" -fm \
    -o "$work/out_fm_$case" > "$work/fm.log" 2>&1 || fail "-fm on $case ended the run"
  grep -q "statistics mode" "$work/fm.log" || fail "-fm on $case: $(cat "$work/fm.log")"
  [[ -z $(ls "$work/out_fm_$case" | grep csv) ]] || fail "-fm on $case wrote a result"
done

# -dm: the listed NPU rows pair with the named bench rows, whatever their dtypes.
for case in mixed:rank0 tensor:proc0; do
  "$dumpcmp" compare -tp "$work/cases/${case%:*}/npu" -gp "$work/cases/${case%:*}/bench" \
    -dm "$data/data_mapping/rows.yaml" -o "$work/out_dm_${case%:*}" > /dev/null 2>&1
  same "$(one "$work/out_dm_${case%:*}" "compare_result_${case#*:}")" "$data/data_mapping/${case%:*}_${case#*:}.csv"
done

# --pandas 2: the cells msprobe writes under pandas 2.3.3 (None dtypes, unmatched rows' integer
# statistics, the statistics differences parsed by pandas 2's to_numeric).
for expected in "$data"/pandas2/*.csv*; do
  name=$(basename "${expected%.gz}" .csv)
  case $name in
    quick_start*) in=("$work/qs/step0" "$work/qs/step1") dir=proc2016 ;;
    *) in=("$work/cases/${name%_*}/npu" "$work/cases/${name%_*}/bench") dir=${name##*_} ;;
  esac
  "$dumpcmp" compare -tp "${in[0]}" -gp "${in[1]}" --pandas 2 -o "$work/out_pd2_$name" > /dev/null 2>&1
  same "$(one "$work/out_pd2_$name" "compare_result_$dir")" "$expected"
done

# --pandas 2 --numpy 1: what msprobe writes beside pandas 1.5.3 and numpy 1.26.4 (numpy1/; their
# statistics cells are pandas 2's, and numpy 1's value-based casting takes a 0-d pair's relative
# error in float32). msprobe ran on an AMD Zen 5: OpenBLAS's Haswell kernel.
for expected in "$data"/numpy1/*.csv; do
  name=$(basename "$expected" .csv)
  DUMPCMP_BLAS_DOT=haswell "$dumpcmp" compare -tp "$work/cases/${name%_*}/npu" \
    -gp "$work/cases/${name%_*}/bench" --pandas 2 --numpy 1 -o "$work/out_np1_$name" > /dev/null 2>&1
  same "$(one "$work/out_np1_$name" "compare_result_${name##*_}")" "$expected"
done

# --html: a page with each pair's counts and its error and warning rows (as many as the CSV has);
# --html and --hdf5 refused with --steps and -da.
"$dumpcmp" compare -tp "$work/cases/mixed/npu" -gp "$work/cases/mixed/bench" -o "$work/out_html" \
  --html "$work/out_html/report.html" > /dev/null 2>&1 || fail "--html did not run"
csv_errors=$(python3 -c 'import csv, sys
print(sum(r["Result"] == "error" for r in csv.DictReader(open(sys.argv[1]))))' \
  "$(one "$work/out_html" compare_result_rank0)")
page_errors=$(grep -c '<tr class="error"><td>[^<]*</td><td>[^0-9]' "$work/out_html/report.html" || true)
[[ $csv_errors -gt 0 && $page_errors == "$csv_errors" ]] ||
  fail "--html lists $page_errors error rows, the CSV has $csv_errors"
grep -q '<tr class="error"><td>rank0</td>' "$work/out_html/report.html" || fail "--html: no rank0 line"
for refused in --steps -da; do
  for extra in --html --hdf5; do
    if "$dumpcmp" compare -tp "$work/cases/mixed/npu" -gp "$work/cases/mixed/bench" $refused \
        -o "$work/out_html_refused" $extra "$work/refused.out" > /dev/null 2>&1; then
      fail "$extra with $refused ran"
    fi
  done
done
# --hdf5 (its rows are checked against the CSV in tests/python/test_probe.py): one table a rank.
"$dumpcmp" compare -tp "$work/cases/mixed/npu" -gp "$work/cases/mixed/bench" -o "$work/out_h5" \
  --hdf5 "$work/out_h5/r.h5" > "$work/h5.log" 2>&1 || fail "--hdf5 did not run"
grep -q "wrote $work/out_h5/r.h5" "$work/h5.log" || fail "--hdf5: not reported"
if command -v h5ls > /dev/null; then
  h5ls -r "$work/out_h5/r.h5" | grep -q '^/pairs/rank0/results *Dataset' || fail "--hdf5: no rank0 table"
fi

# --config: msprobe's post-processing matmuls (config_case/, see its make_config_case.py), run
# from the case's folder as its matrix paths are relative. Values whose sums are exact in float32
# give msprobe's cells byte for byte; the one pair of full-precision values differs from BLAS's
# order in its last digits only. A matrix that cannot be read or multiplied is named in a warning
# and its tensor compared as it is.
(cd "$data/config_case" && "$dumpcmp" compare -tp npu -gp bench -o "$work/out_config" \
  --config config.yaml > "$work/config.log" 2>&1) || fail "--config did not run"
python3 - "$(one "$work/out_config" compare_result_proc0)" "$data/config_case/expected.csv" <<'PY' ||
import csv, math, sys
got, want = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:])
assert got[0] == want[0] and len(got) == len(want), "header or row count"
numeric = {"Cosine", "EucDist", "MaxAbsErr", "MaxRelativeErr", "One Thousandth Err Ratio",
           "Five Thousandths Err Ratio"}
for g, w in zip(got[1:], want[1:]):
    if g[0] != "Functional.linear.2.forward.input.0":
        assert g == w, (g[0], [(a, b) for a, b in zip(g, w) if a != b])
        continue
    for name, a, b in zip(got[0], g, w):
        if name in numeric:
            assert math.isclose(float(a), float(b), rel_tol=1e-3), (name, a, b)
        else:
            assert a == b, (name, a, b)
PY
  fail "--config: cells differ from msprobe's"
for matrix in mats/wrong.npy mats/bf16.pt mats/absent.npy mats/d88.npy; do
  grep -q "matmul .* tensor from $matrix" "$work/config.log" || fail "--config: no warning for $matrix"
done
# MindSpore's compare (ms_compare) does not pass --config nor --consistent_check on: its rows are
# the plain run's.
printf 'right_matmul:\n  target_tensor_map:\n    %s: [Mint.add.0.forward.input.0.npy]\n' \
  "$data/config_case/mats/r8.npy" > "$work/ms_config.yaml"
"$dumpcmp" compare -tp "$work/cases/tensor_mindspore/npu" -gp "$work/cases/tensor_mindspore/bench" \
  -o "$work/out_ms_config" --config "$work/ms_config.yaml" --consistent_check --backend fsdp \
  > /dev/null 2>&1 || fail "--config and --consistent_check with MindSpore did not run"
same "$(one "$work/out_ms_config" compare_result_rank0)" "$data/expected/tensor_mindspore_rank0.csv"
printf 'right_matmul: [1\n' > "$work/bad_config.yaml"  # not YAML: the pair fails alone, named
"$dumpcmp" compare -tp "$data/config_case/npu" -gp "$data/config_case/bench" -o "$work/out_bad_config" \
  --config "$work/bad_config.yaml" > "$work/bad_config.log" 2>&1 || fail "a bad --config stopped the run"
grep -q "bad_config.yaml: not YAML" "$work/bad_config.log" || fail "a bad --config is not named"

# --xlsx: the same cells in a workbook, typed as pandas holds them (text, numbers, booleans),
# read back cell by cell against msprobe's workbook (xlsx/<case>.cells.gz, by xlsx_cells.py).
for case in mixed tensor md5; do
  "$dumpcmp" compare -tp "$work/cases/$case/npu" -gp "$work/cases/$case/bench" --xlsx \
    -o "$work/out_xlsx_$case" > /dev/null 2>&1
  books=("$work/out_xlsx_$case"/compare_result_*.xlsx)
  [[ ${#books[@]} == 1 && -f ${books[0]} ]] || fail "no single workbook in $work/out_xlsx_$case"
  python3 "$root/tests/cli/xlsx_cells.py" "${books[0]}" > "$work/$case.cells"
  same "$work/$case.cells" "$data/xlsx/$case.cells.gz"
  # the workbook msprobe writes beside pandas 1.5.3 and numpy 1.26.4 (numpy1/, Haswell's dots)
  DUMPCMP_BLAS_DOT=haswell "$dumpcmp" compare -tp "$work/cases/$case/npu" \
    -gp "$work/cases/$case/bench" --xlsx --pandas 2 --numpy 1 -o "$work/out_xlsx1_$case" \
    > /dev/null 2>&1
  books=("$work/out_xlsx1_$case"/compare_result_*.xlsx)
  python3 "$root/tests/cli/xlsx_cells.py" "${books[0]}" > "$work/$case.cells1"
  same "$work/$case.cells1" "$data/numpy1/xlsx_$case.cells.gz"
done

# msprobe's debug level: debug.json variables (statistics, md5, tensors), as directories and as
# files; no call numbers, debug_compare_result_ files.
for case in statistics md5 tensor; do
  "$dumpcmp" compare -tp "$data/debug_cases/$case/npu" -gp "$data/debug_cases/$case/bench" \
    -o "$work/out_debug_$case" > /dev/null
  same "$(one "$work/out_debug_$case" debug_compare_result_proc0)" "$data/debug_cases/expected_$case.csv"
done
"$dumpcmp" compare -tp "$data/debug_cases/statistics/npu/proc0/debug.json" \
  -gp "$data/debug_cases/statistics/bench/proc0/debug.json" -o "$work/out_debug_files" > /dev/null
same "$(one "$work/out_debug_files" debug_compare_result)" "$data/debug_cases/expected_statistics.csv"

# A MindSpore run against a PyTorch one (msprobe's unit-test dumps, and the generated tensor case):
# dtypes pair by kind; -am pairs API names (built-in, then apis.yaml), -cm cell paths.
cross="$data/cross_framework"
mkdir -p "$work/xf/ms" "$work/xf/pt"
for side in ms pt; do
  for f in dump stack construct; do gzip -dc "$cross/${side}_$f.json.gz" > "$work/xf/$side/$f.json"; done
done
for run in statistics: statistics_am:-am statistics_am_apis:-am:apis.yaml statistics_cm:-cm \
  statistics_cm_cells:-cm:cells.yaml statistics_lm_layers:-lm:layers.yaml tensor_am:-am \
  tensor_am_apis:-am:apis.yaml tensor_cm_cells:-cm:cells_tensor.yaml; do
  IFS=: read -r name flag file <<< "$run"
  args=(${flag:+"$flag"} ${file:+"$cross/$file"})
  if [[ $name == tensor* ]]; then
    in=("$work/cases/tensor_cross/npu" "$work/cases/tensor_cross/bench") result=compare_result_rank0
  else
    in=("$work/xf/ms/dump.json" "$work/xf/pt/dump.json") result=compare_result
  fi
  "$dumpcmp" compare -tp "${in[0]}" -gp "${in[1]}" "${args[@]}" -o "$work/out_xf_$name" > /dev/null 2>&1
  expected="$cross/$name.csv"
  [[ -f $expected ]] || expected+=.gz
  same "$(one "$work/out_xf_$name" "$result")" "$expected"
done
# -lm also writes the data mapping it derived, as msprobe writes it.
lm_yaml=("$work"/out_xf_statistics_lm_layers/data_mapping_[0-9]*.yaml)
same "${lm_yaml[0]}" "$cross/statistics_lm_layers.yaml"
# The generated -lm case: layers numbered from 4, stack scopes, backward ops, parameter
# gradients, a renamed multi-level child.
python3 "$data/layer_mapping/make_layer_case.py" "$work/lm"
"$dumpcmp" compare -tp "$work/lm/ms/dump.json" -gp "$work/lm/pt/dump.json" \
  -lm "$data/layer_mapping/layers.yaml" -o "$work/out_lm" > /dev/null
same "$(one "$work/out_lm" compare_result)" "$data/layer_mapping/expected.csv"
lm_yaml=("$work"/out_lm/data_mapping_[0-9]*.yaml)
same "${lm_yaml[0]}" "$data/layer_mapping/expected_data_mapping.yaml"
grep -qF "$cross/apis.yaml: the mapping of Mint.logical_or to Tensor.__or__ is left out" \
  "$work"/out_xf_statistics_am_apis/dumpcmp_*.log || fail "the run's log does not name the bad -am entry"
# -am is MindSpore's: refused for two PyTorch files.
if "$dumpcmp" compare -tp "$work/cases/mixed/npu/rank0/dump.json" \
  -gp "$work/cases/mixed/bench/rank0/dump.json" -am -o "$work/out_am_pt" > "$work/am_pt.log" 2>&1; then
  fail "-am on PyTorch files was accepted"
fi
grep -q "Argument -am is not supported in PyTorch framework" "$work/am_pt.log" || fail "$(cat "$work/am_pt.log")"
printf 'a: [1, 2]\n' > "$work/list.yaml"

# In the tensor case, a missing and a damaged data file each fail their own row, named.
for file in "npu/proc0/dump_tensor_data/Functional.tanh.0.forward.input.0.pt: not a torch.save file" \
  "bench/proc0/dump_tensor_data/Functional.tanh.0.forward.output.0.pt: the data file does not exist"; do
  grep -qF "warning: $work/cases/tensor/$file" "$work"/out_tensor/dumpcmp_*.log ||
    fail "the run's log does not name $file: $(cat "$work"/out_tensor/dumpcmp_*.log)"
done

# -da: each rank's op checks and the first differing node over the ranks, as msprobe wrote them
# (diff_cases/<case>/), on the generated communication cases and two of the cases above.
python3 "$data/make_diff_cases.py" "$work/da"
cp -r "$work/cases/mixed" "$work/cases/ranks" "$work/da/"
# json_file OUT_DIR PATTERN: the one file OUT_DIR/PATTERN.
json_file() {
  local files=("$1"/$2)
  [[ ${#files[@]} == 1 && -f ${files[0]} ]] || fail "no single $2 in $1: $(ls "$1")"
  echo "${files[0]}"
}
for case_dir in "$data"/diff_cases/*/; do
  case=$(basename "$case_dir") out="$work/out_da_$case"
  "$dumpcmp" compare -tp "$work/da/$case/npu" -gp "$work/da/$case/bench" -o "$out" -da > "$work/da.log"
  for expected in "$case_dir"compare_result_rank*.json.gz; do
    name=$(basename "$expected" .json.gz)
    same "$(json_file "$out" "${name}_[0-9]*.json")" "$expected"
  done
  ranks=("$case_dir"compare_result_rank*.json.gz) written=("$out"/compare_result_rank*.json)
  [[ ${#ranks[@]} == "${#written[@]}" ]] || fail "-da on $case wrote ${#written[@]} rank files"
  if [[ -f ${case_dir}diff_analyze.json ]]; then
    same "$(json_file "$out" "diff_analyze_[0-9]*.json")" "${case_dir}diff_analyze.json"
  else
    [[ -z $(ls "$out" | grep diff_analyze) ]] || fail "-da on $case found a node msprobe did not"
    grep -q "no differing node found" "$work/da.log" || fail "-da on $case: $(cat "$work/da.log")"
  fi
done
# With two files, -da is ignored: the CSV of a plain compare.
"$dumpcmp" compare -tp "$work/cases/ranks/npu/rank0/dump.json" \
  -gp "$work/cases/ranks/bench/rank0/dump.json" -o "$work/out_da_files" -da > /dev/null
same "$(one "$work/out_da_files" compare_result)" "$data/expected/ranks_rank0.csv"

# --steps: a whole run, every step<N> of the dump paths into OUT/step<N>/ (each file what the step's
# own compare writes), summary.csv and index.html; a broken pair and a step without a bench
# counterpart fail alone; --resume skips the finished steps, and only for the same run.
mkdir -p "$work/steps_npu" "$work/steps_bench"
for step in 0 1 3; do cp -r "$work/cases/ranks/npu" "$work/steps_npu/step$step"; done
for step in 0 1 5; do cp -r "$work/cases/ranks/bench" "$work/steps_bench/step$step"; done
echo '{"task": "statistics", "data": {' > "$work/steps_npu/step1/rank1/dump.json"
"$dumpcmp" compare -tp "$work/steps_npu" -gp "$work/steps_bench" --steps -o "$work/out_steps" \
  > "$work/steps.log" 2> "$work/steps.err" || fail "--steps: $(cat "$work/steps.err")"
same "$(one "$work/out_steps/step0" compare_result_rank0)" "$data/expected/ranks_rank0.csv"
same "$(one "$work/out_steps/step0" compare_result_rank1)" "$data/expected/ranks_rank1.csv"
same "$(one "$work/out_steps/step1" compare_result_rank0)" "$data/expected/ranks_rank0.csv"
cut -d, -f1-9,11- "$work/out_steps/summary.csv" > "$work/summary_cut.csv"
cat > "$work/summary_expected.csv" << 'EOF_SUMMARY'
Step,Pair,Status,Rows,Matched,Pass,Warning,Error,FirstError,Message
0,rank0,compared,5,5,5,0,0,,
0,rank1,compared,2,2,2,0,0,,
1,rank0,compared,5,5,5,0,0,,
EOF_SUMMARY
head -4 "$work/summary_cut.csv" | cmp -s - "$work/summary_expected.csv" ||
  fail "summary.csv: $(cat "$work/out_steps/summary.csv")"
grep -q "^1,rank1,failed,.*steps_npu/step1/rank1/dump.json: invalid JSON" "$work/out_steps/summary.csv" ||
  fail "the broken pair is not in summary.csv: $(cat "$work/out_steps/summary.csv")"
grep -q "^3,,no bench step," "$work/out_steps/summary.csv" || fail "step3's line: $(cat "$work/out_steps/summary.csv")"
grep -q "steps_bench/step5: no NPU step of that number" "$work/steps.err" || fail "$(cat "$work/steps.err")"
grep -q 'href="step0/compare_result_rank0_' "$work/out_steps/index.html" || fail "index.html links no result"
find "$work/out_steps" -name 'compare_result_*' | sort > "$work/steps_files.txt"
"$dumpcmp" compare -tp "$work/steps_npu" -gp "$work/steps_bench" --steps --resume \
  -o "$work/out_steps" > "$work/resume.log" 2>&1 || fail "--resume: $(cat "$work/resume.log")"
[[ $(grep -c "(resumed)" "$work/resume.log") == 5 ]] || fail "--resume redid steps: $(cat "$work/resume.log")"
find "$work/out_steps" -name 'compare_result_*' | sort | cmp -s - "$work/steps_files.txt" ||
  fail "--resume wrote result files again"
if "$dumpcmp" compare -tp "$work/steps_npu" -gp "$work/steps_bench" --steps --resume -fm \
  -o "$work/out_steps" > "$work/resume.log" 2>&1; then
  fail "--resume took another run's journal"
fi
grep -q "the journal is of another run" "$work/resume.log" || fail "$(cat "$work/resume.log")"
if "$dumpcmp" compare -tp "$work/steps_npu" -gp "$work/steps_bench" --steps --resume \
  --consistent_check --backend fsdp -o "$work/out_steps" > "$work/resume.log" 2>&1; then
  fail "--resume took the journal of a run without --consistent_check"
fi
grep -q "the journal is of another run" "$work/resume.log" || fail "$(cat "$work/resume.log")"
"$dumpcmp" compare -tp "$work/steps_npu" -gp "$work/steps_bench" --steps "0|3" \
  -o "$work/out_steps_03" > /dev/null 2>&1 || fail "--steps 0|3"
[[ $(cut -d, -f1 "$work/out_steps_03/summary.csv" | sort -u | tr '\n' ' ') == "0 3 Step " ]] ||
  fail "--steps 0|3: $(cat "$work/out_steps_03/summary.csv")"

# A pair that cannot be read fails alone: the other rank is written, the file is named.
cp -r "$work/cases/ranks" "$work/broken"
echo '{"task": "statistics", "data": {' > "$work/broken/npu/rank1/dump.json"
"$dumpcmp" compare -tp "$work/broken/npu" -gp "$work/broken/bench" -o "$work/out_broken" \
  > "$work/broken.log" 2>&1 || fail "a broken pair ended the run: $(cat "$work/broken.log")"
one "$work/out_broken" compare_result_rank0 > /dev/null
grep -q "warning: $work/broken/npu/rank1/dump.json: invalid JSON" "$work/broken.log" ||
  fail "the broken file is not named: $(cat "$work/broken.log")"
[[ -z $(ls "$work/out_broken" | grep rank1) ]] || fail "a result was written for the broken pair"
grep -q "^warning: $work/broken/npu/rank1/dump.json: invalid JSON" "$work"/out_broken/dumpcmp_*.log ||
  fail "the run's log does not name the broken file"

# Refusals: different kinds of path, a missing path, MindSpore against PyTorch (either way).
expect_error() {  # expect_error MESSAGE ARGS...: exits non-zero, saying MESSAGE
  local message=$1
  shift
  if "$dumpcmp" compare "$@" > "$work/err.log" 2>&1; then fail "accepted: $*"; fi
  grep -qF -- "$message" "$work/err.log" || fail "expected '$message': $(cat "$work/err.log")"
}
expect_error "need to be of the same type" -tp "$work/cases/md5/npu" \
  -gp "$work/cases/md5/bench/proc12/dump.json" -o "$work/e"
expect_error "$work/list.yaml: a data mapping maps row names to row names" -tp "$work/cases/mixed/npu" \
  -gp "$work/cases/mixed/bench" -dm "$work/list.yaml" -o "$work/e"
expect_error "$work/none: path does not exist" -tp "$work/none" -gp "$work/cases/md5/bench" -o "$work/e"
mkdir -p "$work/ms" "$work/untyped"
sed 's/"framework": "pytorch"/"framework": "mindspore"/' "$work/cases/numbers/npu/proc12/dump.json" > "$work/ms/dump.json"
# A bench whose framework neither its "framework" key nor a tensor "type" names.
sed -e 's/"framework": "pytorch",//' -e 's/"type": "torch\./"type": "other./g' \
  "$work/cases/numbers/npu/proc12/dump.json" > "$work/untyped/dump.json"
expect_error "$work/untyped/dump.json: must be based on the MindSpore or PyTorch framework" \
  -tp "$work/ms/dump.json" -gp "$work/untyped/dump.json" -o "$work/e"
expect_error "Unrecognized framework, target now is pytorch, golden now is mindspore" \
  -tp "$work/cases/numbers/npu/proc12/dump.json" -gp "$work/ms/dump.json" -o "$work/e"
# --consistent_check needs --backend, and takes neither -fm nor -dm (msprobe's compare fails on
# them); MindSpore's compare ignores it (above, with --config).
expect_error "the 'backend' parameter must be set to 'fsdp' or 'megatron'" \
  -tp "$work/cases/mixed/npu" -gp "$work/cases/mixed/bench" --consistent_check -o "$work/e"
expect_error "the 'backend' parameter must be set to 'fsdp' or 'megatron'" \
  -tp "$work/ms/dump.json" -gp "$work/ms/dump.json" --consistent_check -o "$work/e"
# -da's search over the ranks checks no backend (msprobe's DiffAnalyzer passes the flag over).
"$dumpcmp" compare -tp "$work/cases/ranks/npu" -gp "$work/cases/ranks/bench" -da --consistent_check \
  -o "$work/out_da_verl" > /dev/null 2>&1 || fail "-da with --consistent_check and no --backend refused"
expect_error "--consistent_check pairs rows by its own keys" -tp "$data/verl/fsdp_md5/npu/rank0/dump.json" \
  -gp "$data/verl/fsdp_md5/bench/rank0/dump.json" --consistent_check --backend fsdp -fm -o "$work/e"
# Rows the two dumps put in contradicting orders stop msprobe's compare of the pair (verl/conflict:
# it writes nothing), named.
expect_error "Conflicting comparison data" -tp "$data/verl/conflict/npu/rank0/dump.json" \
  -gp "$data/verl/conflict/bench/rank0/dump.json" --consistent_check --backend fsdp -o "$work/e"
# A gathered side whose files numpy cannot concatenate stops msprobe's compare of the pair; one
# whose file is missing fails its row alone, named.
cp -r "$data/verl/fsdp_tensor" "$work/verl_cat"
npu_data="$work/verl_cat/npu/rank0/dump_tensor_data"
layer0=Module._fsdp_wrapped_module.model.layers.0._fsdp_wrapped_module.self_attn
v_output=$layer0.v_proj.Linear.forward.0.output.0.pt  # concatenated with q's and k's (3 rows each)
cp "$npu_data/$layer0.o_proj.Linear.forward.0.parameters.weight.pt" "$npu_data/$v_output"  # 8 rows
expect_error "numpy.concatenate of" -tp "$work/verl_cat/npu/rank0/dump.json" \
  -gp "$work/verl_cat/bench/rank0/dump.json" --consistent_check --backend fsdp -o "$work/e"
rm "$npu_data/$v_output"
"$dumpcmp" compare -tp "$work/verl_cat/npu" -gp "$work/verl_cat/bench" -o "$work/out_verl_missing" \
  --consistent_check --backend fsdp > /dev/null 2> "$work/verl_missing.log"
grep -qF "$npu_data/$v_output: the data file does not exist" "$work/verl_missing.log" ||
  fail "a gathered row's missing file not named: $(cat "$work/verl_missing.log")"
grep -q "v_proj.*output.0,.*unsupported,unsupported" "$(one "$work/out_verl_missing" compare_result_rank0)" ||
  fail "a gathered row's missing file did not fail its row"
[[ ! -e $work/e ]] || [[ -z $(ls "$work/e") ]] || fail "a refused run wrote $(ls "$work/e")"
echo "probe compare: all cases equal msprobe's files"
