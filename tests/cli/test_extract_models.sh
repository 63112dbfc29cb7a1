#!/usr/bin/env bash
# End to end: dumpcmp extract --model on a Caffe net (.prototxt + .caffemodel) and a TensorFlow
# GraphDef written field by field (tests/cli/model_bytes.py, no framework needed): the sub-model's
# files, the Input layer whose shape only the offline model knows, the seed's log, --list.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
bytes=$root/tests/cli/model_bytes.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$work/net.prototxt" <<'TXT'
name: "tiny"
layer {
  name: "data"
  type: "Input"
  top: "data"
  input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } }
}
layer {
  name: "conv1"
  type: "Convolution"
  bottom: "data"
  top: "conv1"
  convolution_param { num_output: 4 kernel_size: 3 pad: 1 }  # kept as written
}
layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }
layer {
  name: "pool1"
  type: "Pooling"
  bottom: "conv1"
  top: "pool1"
  pooling_param { pool: MAX kernel_size: 2 stride: 2 }
}
layer { name: "ip1" type: "InnerProduct" bottom: "pool1" top: "ip1" inner_product_param { num_output: 10 } }
TXT
python3 "$bytes" caffemodel "$work/net.caffemodel"

# relu1 works in place on conv1's blob: its shape is in no .prototxt.
rc=0
"$dumpcmp" extract --model "$work/net.prototxt" --start relu1 --end ip1 -out "$work/x" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc without a shape"
grep -qF 'the shape of blob "conv1" (an input of layer "relu1") is unknown' "$work/log" ||
  fail "message: $(cat "$work/log")"

# The offline model knows it (the origin shape of conv1's output); the dumps come along.
"$gen" --out "$work/d" --ops 3 --inputs 1 --min-elements 6 --max-elements 6 --dtypes float32 >/dev/null
op() {  # name inputs original-names origin-layer origin-shape
  local origin=""
  for n in $3; do origin+="${origin:+,}\"$n\""; done
  printf '{"name":"%s","type":"X","input":[%s],"output_desc":[{"dtype":"DT_FLOAT","layout":"NCHW","attr":[{"key":"_datadump_origin_name","value":{"s":"%s"}},{"key":"_datadump_origin_output_index","value":{"i":0}},{"key":"_datadump_origin_format","value":{"s":"NCHW"}},{"key":"origin_shape","value":{"list":{"i":[%s]}}}]}],"attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":[%s]}}}]}' \
    "$1" "$2" "$4" "$5" "$origin"
}
cat > "$work/om.json" <<JSON
{"name":"tiny","graph":[{"name":"tiny","op":[
 $(op layer0 '' 'conv1 relu1' conv1 '1,4,8,8'), $(op layer1 '"layer0:0"' 'pool1' pool1 '1,4,4,4'),
 $(op layer2 '"layer1:0"' 'ip1' ip1 '1,10')]}]}
JSON
"$dumpcmp" extract --model "$work/net.prototxt" --graph "$work/om.json" --dump "$work/d/left" \
  --start relu1 --end ip1 -out "$work/c" > "$work/log" 2> "$work/err"
[ ! -s "$work/err" ] || fail "stderr: $(cat "$work/err")"  # the model names agree: no warning
out=$(ls -d "$work"/c/dump_result_*)
for f in dump.prototxt dump.caffemodel extract_log.txt dump_data; do
  [ -e "$out/$f" ] || fail "no $f"
done
cat > "$work/want_log" <<TXT
Add Layer Into Prototxt:
name: "relu1_input_0"
type: "Input"
top: "conv1"
input_param {
  shape {
    dim: 1
    dim: 4
    dim: 8
    dim: 8
  }
}
Output Dump Path:$out/dump_data
Dump Layer:[conv1, relu1]
TXT
head -14 "$out/extract_log.txt" | diff "$work/want_log" - || fail "log head"
grep -A2 -x 'Dump Layer:\[pool1\]' "$out/extract_log.txt" | grep -q '^Input File:[A-Za-z0-9]*\.layer0\.' ||
  fail "log: pool1's input file"
tail -1 "$out/extract_log.txt" | grep -qx 'Export Layer:relu1,pool1,ip1' || fail "log: export layer"
grep -q '^  name: "relu1_input_0"$' "$out/dump.prototxt" || fail "prototxt: Input layer"
grep -qF 'convolution_param' "$out/dump.prototxt" && fail "prototxt: conv1 is outside"
grep -qx 'layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }' "$out/dump.prototxt" ||
  fail "prototxt: relu1 as written"
[ "$(python3 "$bytes" layers "$out/dump.caffemodel" 100 | tr '\n' ' ')" = "relu1 pool1 ip1 " ] ||
  fail "caffemodel layers"

# --graph alone: the shape, no dump_data.
"$dumpcmp" extract --model "$work/net.prototxt" --graph "$work/om.json" --start relu1 --end ip1 \
  -out "$work/g" > "$work/log"
out=$(ls -d "$work"/g/dump_result_*)
grep -qx '      dim: 4' "$out/dump.prototxt" && [ ! -e "$out/dump_data" ] || fail "--graph alone"
grep -q '^Output Dump Path' "$out/extract_log.txt" && fail "--graph alone: log"

# --list: shapes from the model, else from the offline model.
"$dumpcmp" extract --model "$work/net.prototxt" --graph "$work/om.json" --list > "$work/list"
grep -qx '  data (Input) -> data \[1,3,8,8\]' "$work/list" || fail "list: $(cat "$work/list")"
grep -qx '  pool1 (Pooling) <- conv1 -> pool1 \[1,4,4,4\]' "$work/list" || fail "list: pool1"

# A model name that differs from the offline model's is a warning.
sed 's/"name":"tiny"/"name":"other"/g' "$work/om.json" > "$work/other.json"
"$dumpcmp" extract --model "$work/net.prototxt" --graph "$work/other.json" --dump "$work/d/left" \
  --start pool1 --end ip1 -out "$work/c2" > "$work/log" 2> "$work/err"
grep -q 'warning: .* named "other", not "tiny"' "$work/err" || fail "warning: $(cat "$work/err")"

# TensorFlow: a Placeholder for the start node's input, typed and shaped from _output_shapes.
python3 "$bytes" graphdef "$work/g.pb"
"$dumpcmp" extract --model "$work/g.pb" --start relu --end out -out "$work/t" > "$work/log"
out=$(ls -d "$work"/t/dump_result_*)
[ "$(python3 "$bytes" layers "$out/dump.pb" 1 | tr '\n' ' ')" = "relu_input_0 relu out " ] ||
  fail "graphdef nodes: $(python3 "$bytes" layers "$out/dump.pb" 1)"
grep -q '^op: "Placeholder"$' "$out/extract_log.txt" || fail "log: placeholder"
grep -A12 'key: "shape"' "$out/extract_log.txt" | grep -c 'size:' | grep -qx 2 || fail "log: shape"
grep -qx 'Export Layer:relu,out' "$out/extract_log.txt" || fail "log: export layer"
echo "extract models: ok"
