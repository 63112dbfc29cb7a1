#!/usr/bin/env bash
# The seed's tool spellings: dump_data_conversion and shape_conversion write the files msaccucmp's
# scripts write, byte for byte (tests/data/msaccucmp_convert/expected/{ddc,sc}_*), and .npy files
# made dumps read back to the same arrays.
set -euo pipefail
dumpcmp=$1 root=$3
expected="$root/tests/data/msaccucmp_convert/expected"
layouts="$root/tests/data/msaccucmp_fusion/layouts/left"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
same_files() {  # name, output dir
  for f in "$expected/$1"/*; do
    cmp -s "$f" "$2/$(basename "$f")" || fail "$1: $(basename "$f") differs"
  done
  [ "$(ls "$2" | wc -l)" -eq "$(ls "$expected/$1" | wc -l)" ] || fail "$1: $(ls "$2")"
  echo "$1: $(ls "$2" | wc -l) files identical"
}

"$dumpcmp" dump_data_conversion -target numpy -type offline \
  -i "$layouts/Conv2D.conv.3.0.1700000000000003" -o "$work/ddc_conv" >/dev/null
same_files ddc_conv "$work/ddc_conv"
# empty tensors (float64 as np.array([]) is) and a scalar (0-d)
"$dumpcmp" dump_data_conversion -target numpy -type offline \
  -i "$root/tests/data/msaccucmp/empty_scalar_bool/left/Slice.empties.2.1.1700000000000001" \
  -o "$work/ddc_empties" >/dev/null 2>&1
same_files ddc_empties "$work/ddc_empties"

sc() {  # name, arguments
  local name=$1; shift
  "$dumpcmp" shape_conversion "$@" -o "$work/$name" >/dev/null
  same_files "$name" "$work/$name"
}
sc sc_conv_nchw -i "$layouts/Conv2D.conv.3.0.1700000000000003" -format NCHW
sc sc_conv_in0_nhwc -i "$layouts/Conv2D.conv.3.0.1700000000000003" -format NHWC -tensor input -index 0
sc sc_bmm_nd -i "$layouts/BatchMatMul.bmm.6.0.1700000000000006" -format ND -shape 2,5,7
sc sc_data_nhwc -i "$layouts/Data.x.1.0.1700000000000001" -format NHWC
# the same format: nothing to do; FRACTAL_NZ without -shape and an index past the tensors: errors
"$dumpcmp" shape_conversion -i "$layouts/Relu.act.4.0.1700000000000004" -format NC1HWC0 \
  -o "$work/same" | grep -q "no need to transfer format" || fail "same format"
[ -z "$(ls "$work/same")" ] || fail "same format wrote a file"
set +e
"$dumpcmp" shape_conversion -i "$layouts/BatchMatMul.bmm.6.0.1700000000000006" -format ND \
  -o "$work/nz" 2>"$work/nz.err"; rc=$?
"$dumpcmp" shape_conversion -i "$layouts/Conv2D.conv.3.0.1700000000000003" -format NCHW \
  -index 3 -o "$work/idx" 2>"$work/idx.err"; rc2=$?
set -e
[ $rc -eq 2 ] && grep -q "The format before transfer is FRACTAL_NZ. Please enter a valid shape" \
  "$work/nz.err" || fail "FRACTAL_NZ without -shape: $rc"
[ $rc2 -eq 2 ] && grep -q "The output index (3) is out of range" "$work/idx.err" ||
  fail "index past the outputs: $rc2"

# -target dump: framework .npy files become dumps (.pb for caffe/tf, .quant, offline names), which
# -target numpy turns back into the same .npy files, byte for byte; a directory converts every
# file (msaccucmp's script converts none: it lists the characters of the path).
golden="$root/tests/data/msaccucmp_fusion/basic/right"
"$dumpcmp" dump_data_conversion -target dump -type caffe -i "$golden" -o "$work/dumps" >/dev/null
n=$(ls "$golden" | wc -l)
[ "$(ls "$work/dumps"/*.pb | wc -l)" -eq "$n" ] || fail "caffe dumps: $(ls "$work/dumps")"
"$dumpcmp" dump_data_conversion -target numpy -type caffe -i "$work/dumps" -o "$work/back" \
  >/dev/null 2>&1
for f in "$golden"/*.npy; do
  b=$(basename "$f" .npy); b=${b%.*}  # op.index.timestamp -> op.index
  cmp -s "$f" "$work/back/$b.npy" || fail "round trip of $(basename "$f")"
done
"$dumpcmp" dump_data_conversion -target dump -type quant -i "$golden/fc1.0.1700000000000000.npy" \
  -o "$work/q" >/dev/null
[ -f "$work/q/fc1.0.1700000000000000.quant" ] || fail "quant name: $(ls "$work/q")"
echo "round trip: $n .npy files through dumps and back"

# names outside the type's pattern fail their file, listed; the others are converted
set +e
"$dumpcmp" dump_data_conversion -target numpy -type caffe -i "$layouts" -o "$work/bad" 2>/dev/null
rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l < "$work/bad/convert_failed_file_list.txt")" -eq "$(ls "$layouts" | wc -l)" ] ||
  fail "offline names as caffe: $rc"
echo "test_seed_tools: ok"
