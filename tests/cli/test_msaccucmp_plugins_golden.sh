#!/usr/bin/env bash
# Custom algorithm plug-ins (-c DIR/algorithm/alg_<Name>.py, -a parameters) give the rows the real
# msaccucmp gives with the same plug-ins (tests/data/msaccucmp_plugins: NPU vs NPU and through -f,
# a plug-in that raises, one returning a float, one without compare(), a custom file overriding a
# built-in name). Needs the project's .venv (scripts/python-env.sh) for numpy: skipped without it.
set -euo pipefail
dumpcmp=$1 root=$3
python="$root/.venv/bin/python"
if ! "$python" -c "import numpy" 2>/dev/null; then
  echo "no $python with numpy (scripts/python-env.sh): skipped"; exit 77
fi
export DUMPCMP_PYTHON=$python
data="$root/tests/data"
plug="$data/msaccucmp_plugins"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Converted tensors are kept in a temporary folder while a compare runs: none may be left over.
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
failed=0
# The expected files come from msaccucmp 72c5bd4c, which prints NaN for an address of 0 where the
# current msaccucmp (and dumpcmp) print 0 (docs/compatibility.md): Address cells are left out.
without_addresses() {
  python3 -c 'import csv,sys
rows=list(csv.reader(open(sys.argv[1],newline="")))
keep=[i for i,h in enumerate(rows[0]) if h!="Address"]
w=csv.writer(open(sys.argv[2],"w",newline=""),lineterminator="\r\n")
for r in rows: w.writerow([r[i] for i in keep])' "$1" "$2"
}
run() {
  local name=$1 case=$2; shift 2
  local args=() a
  for a in "$@"; do args+=("${a//@PLUG@/$plug}"); done
  local out="$work/$name"
  mkdir -p "$out"
  (cd "$data/$case" && "$dumpcmp" compare "${args[@]}" -out "$out" --device cpu >"$out.log" 2>&1) ||
    true
  without_addresses "$out"/result_*.csv "$work/$name.ours.csv" 2>/dev/null || true
  without_addresses "$plug/expected/$name.csv" "$work/$name.theirs.csv"
  if ! python3 "$root/bench/diff_results.py" "$work/$name.ours.csv" "$work/$name.theirs.csv" \
       >"$out.diff"; then
    echo "FAIL: $name"; cat "$out.diff"; cat "$out.log"; failed=1
  else
    echo "$name: $(tail -n 1 "$out.diff")"
  fi
}
# shellcheck source=../data/msaccucmp_plugins/runs.sh
source "$plug/runs.sh"

# msaccucmp's warnings, each once, on stderr and in the run's log.
log="$work/nd_restore_npu.log"
grep -q "warning: The file ''notes.txt'' does not match 'alg_{algorithm_name}.py'" "$log" ||
  { echo "FAIL: no warning for notes.txt"; failed=1; }
grep -q "warning: \[Custom\] The file '.*alg_NoFunc.py' has no attribute 'compare'" "$log" ||
  { echo "FAIL: no warning for alg_NoFunc.py"; failed=1; }
[ "$(grep -c "Failed to execute 'compare' in 'Broken'. boom" "$log")" -eq 1 ] ||
  { echo "FAIL: the Broken warning is not given once"; failed=1; }
grep -q "Failed to execute 'compare' in 'Broken'" "$work"/nd_restore_npu/dumpcmp_*.log ||
  { echo "FAIL: the run's log lacks the plug-in's warning"; failed=1; }

# Custom format conversions through -f: a converter that cannot be used is warned about (the
# built-in one converts), a failing one is named on the console and in the run's log.
log="$work/layouts_conversions.log"
grep -q "warning: \[Custom\] The argument count (2) of 'convert' in .*convert_FRACTAL_NZ_to_ND.py is not 3" \
  "$log" || { echo "FAIL: no warning for convert_FRACTAL_NZ_to_ND.py"; failed=1; }
grep -q "conv: Failed to execute 'convert' in 'convert_FRACTAL_Z_to_NCHW'. no FRACTAL_Z today" \
  "$work"/layouts_fusion/dumpcmp_*.log ||
  { echo "FAIL: the run's log lacks the failing converter's message"; failed=1; }
[ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: converted tensors left in $TMPDIR"; failed=1; }
rc=0
(cd "$data/msaccucmp_fusion/layouts" && "$dumpcmp" compare -m left -g right -f model.json \
  -c "$plug/conversions" --plan-only "$work/plan.jsonl" >"$work/plan.log" 2>&1) || rc=$?
[ "$rc" -eq 1 ] && grep -qF "custom format conversions (-c) run in a single-process" "$work/plan.log" ||
  { echo "FAIL: --plan-only with custom conversions (exit $rc): $(cat "$work/plan.log")"; failed=1; }

# What cannot run says so and writes nothing.
expect_error() {  # MESSAGE args...
  local message=$1; shift
  local rc=0
  rm -rf "$work/err"
  "$dumpcmp" compare -m "$data/msaccucmp/mixed/left" -g "$data/msaccucmp/mixed/right" \
    -out "$work/err" "$@" >"$work/err.log" 2>&1 || rc=$?
  if [ "$rc" -ne 1 ] || ! grep -qF "$message" "$work/err.log" ||
     [ -n "$(ls "$work"/err/result_* 2>/dev/null)" ]; then
    echo "FAIL: $* (exit $rc): $(cat "$work/err.log")"; failed=1
  fi
}
DUMPCMP_PYTHON=/nonexistent/python3 expect_error \
  "custom algorithms (-c) need Python 3 with numpy: cannot run /nonexistent/python3" \
  -c "$plug/custom" -alg MeanDiff
expect_error "The algorithm in ['NoFunc'] does not supported." -c "$plug/custom" -alg NoFunc
expect_error "The algorithm argument ('MeanDiff:scale') is invalid" -c "$plug/custom" \
  -alg MeanDiff -a "MeanDiff:scale"
expect_error "custom algorithms (-c) run in a single-process whole-network compare" \
  -c "$plug/custom" -alg MeanDiff --plan-only "$work/plan.jsonl"

# A plug-in that kills its interpreter: its cells fail naming why, the rest of the row stays.
mkdir -p "$work/dying/algorithm"
printf 'import os\ndef compare(a, b, args):\n    os._exit(7)\n' > "$work/dying/algorithm/alg_Die.py"
"$dumpcmp" compare -m "$data/msaccucmp/mixed/left" -g "$data/msaccucmp/mixed/right" \
  -out "$work/dying/out" -c "$work/dying" -alg Die,1 >"$work/dying.log" 2>&1
csv=$(ls "$work"/dying/out/result_*.csv)
grep -q ',NaN,0.250000,the custom algorithm worker (.*) exited with status 7' "$csv" ||
  { echo "FAIL: a dying worker's rows: $(head -3 "$csv")"; failed=1; }

# shape_conversion -custom: DIR/format_convert/convert_{FROM}_to_{TO}.py replaces the built-in
# converter; its result is the file msaccucmp's shape_conversion.py writes, byte for byte.
layouts="$data/msaccucmp/layouts/left"
for args in "Conv2D.nc1hwc0.1.1.1700000000000001 -format NCHW" \
            "Conv2D.nc1hwc0_f32.2.1.1700000000000002 -format NCHW -tensor input"; do
  read -r file rest <<<"$args"
  rm -rf "$work/sc"
  # shellcheck disable=SC2086  # the rest of the arguments are split on purpose
  "$dumpcmp" shape_conversion -i "$layouts/$file" $rest -o "$work/sc" -custom "$plug/custom" \
    >"$work/sc.log" 2>&1 || true
  written=$(ls "$work/sc")
  if [ -z "$written" ] || ! cmp -s "$work/sc/$written" "$plug/expected/$written"; then
    echo "FAIL: shape_conversion -custom $args: $written $(cat "$work/sc.log")"; failed=1
  fi
done
expect_conversion_error() {  # MESSAGE FILE args...
  local message=$1 file=$2; shift 2
  local rc=0
  rm -rf "$work/sc"
  "$dumpcmp" shape_conversion -i "$layouts/$file" "$@" -o "$work/sc" -custom "$plug/custom" \
    >"$work/sc.log" 2>&1 || rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF "$message" "$work/sc.log" || [ -n "$(ls "$work/sc")" ]; then
    echo "FAIL: shape_conversion -custom $file (exit $rc): $(cat "$work/sc.log")"; failed=1
  fi
}
expect_conversion_error \
  "The return value of 'convert' in 'convert_NC1HWC0_to_NHWC' is not numpy.ndarray." \
  Conv2D.nc1hwc0.1.1.1700000000000001 -format NHWC
expect_conversion_error \
  "Failed to execute 'convert' in 'convert_FRACTAL_Z_to_NCHW'. no FRACTAL_Z today: [18, 2, 16, 16] -> []" \
  Conv2D.fz.3.1.1700000000000003 -format NCHW

# convert -f FORMAT -c DIR: the custom converter for a tensor's format pair replaces the built-in
# one; its result is cut to the original shape (or, when it cannot be, kept whole and named with
# the dump's format) and written as msaccucmp writes it, in every output type.
convert_case() {  # EXPECTED_DIR FORMAT TYPE PATTERN
  local expected="$plug/expected/$1" out="$work/$1"
  "$dumpcmp" convert -d "$layouts" -f "$2" -t "$3" -c "$plug/custom" -out "$out" \
    >"$out.log" 2>&1 || true
  for f in "$expected"/*; do
    cmp -s "$f" "$out/$(basename "$f")" ||
      { echo "FAIL: convert -f $2 -t $3 -c: $(basename "$f")"; failed=1; }
  done
  [ "$(cd "$out" && ls $4 | wc -l)" -eq "$(ls "$expected" | wc -l)" ] ||
    { echo "FAIL: convert -f $2 -t $3 -c wrote $(cd "$out" && ls $4)"; failed=1; }
}
convert_case convert_nchw_npy NCHW npy 'Conv2D.nc1hwc0*'
convert_case convert_ncdhw_msnpy NCDHW msnpy 'Conv2D.ndc1*'
convert_case convert_ncdhw_bin NCDHW bin 'Conv2D.ndc1*'
grep -qF "Failed to execute 'convert' in 'convert_FRACTAL_Z_to_NCHW'. no FRACTAL_Z today" \
  "$work/convert_nchw_npy.log" || { echo "FAIL: convert -c: the failing converter's message"; failed=1; }
grep -q "Conv2D.fz.3.1.1700000000000003,input:0,output:0" \
  "$work/convert_nchw_npy/convert_failed_file_list.txt" ||
  { echo "FAIL: convert -c: the failed tensors are not listed"; failed=1; }
exit $failed
