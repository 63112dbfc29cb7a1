#!/usr/bin/env bash
# End to end: dumpcmp extract --model cuts an ONNX sub-model between two layers. The model is built
# with the onnx package (the project's .venv, scripts/python-env.sh); the export must pass
# onnx.checker, have onnx.utils.extract_model's nodes, and give the full model's intermediate
# outputs under onnxruntime. With --graph/--dump the offline-model ops' dumps come along.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
py=$root/.venv/bin/python
if [ ! -x "$py" ] || ! "$py" -c "import numpy, onnx, onnxruntime" 2>/dev/null; then
  echo "SKIP: $py with numpy, onnx and onnxruntime is missing (bash scripts/python-env.sh)"
  exit 77
fi
helper=$root/tests/cli/onnx_submodel.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$py" "$helper" build "$work/m.onnx"

# A middle piece: a constant node and a weight feed it; its input is an intermediate tensor.
"$dumpcmp" extract --model "$work/m.onnx" --start relu1 --end relu2 -out "$work/a" > "$work/log"
out=$(ls -d "$work"/a/dump_result_*)
[[ $(basename "$out") =~ ^dump_result_[0-9]{4}(_[0-9]{2}){5}$ ]] || fail "folder name $out"
"$py" "$helper" check "$work/m.onnx" "$out/dump.onnx" c1 -- r2 || fail "relu1..relu2"
grep -q '^Add Layer Into Prototxt:$' "$out/extract_log.txt" || fail "log: added input"
grep -q '^  name: "c1"$' "$out/extract_log.txt" || fail "log: input name"
grep -q '^  shape: \[1,4,6,6\]$' "$out/extract_log.txt" || fail "log: input shape"
grep -qx 'Export Layer:relu1,conv2,kconst,mul1,add1,relu2' "$out/extract_log.txt" ||
  fail "log: export layer: $(cat "$out/extract_log.txt")"
[ ! -e "$out/dump_data" ] || fail "dump_data without --dump"

# From the model input to the last (unnamed) node, the side branch left out.
"$dumpcmp" extract --model "$work/m.onnx" --start conv1 --end prob -out "$work/b" > "$work/log"
"$py" "$helper" check "$work/m.onnx" "$(ls -d "$work"/b/dump_result_*)/dump.onnx" x -- prob ||
  fail "conv1..prob"

# If branches read outer tensors: n2 feeds the If only through its then branch, and the
# initializer S is read only there; both are kept (onnx's extract_model would miss them).
"$py" "$helper" build-if "$work/if.onnx"
"$dumpcmp" extract --model "$work/if.onnx" --start n2 --end n3 -out "$work/i" > "$work/log"
out=$(ls -d "$work"/i/dump_result_*)
"$py" "$helper" check-if "$work/if.onnx" "$out/dump.onnx" a -- y || fail "If branches"
grep -qx 'Export Layer:n2,gate,n3' "$out/extract_log.txt" || fail "If: export layer"

# --list: every layer with its output shapes, the sub-model marked; --html draws it.
"$dumpcmp" extract --model "$work/m.onnx" --start relu1 --end relu2 --list \
  --html "$work/g.html" -out "$work/c" > "$work/list"
grep -qx '  conv1 (Conv) <- x, W1, B1 -> c1 \[1,4,6,6\]' "$work/list" || fail "list: $(cat "$work/list")"
grep -qx '\* mul1 (Mul) <- r1, k -> m1 \[1,4,6,6\]' "$work/list" || fail "list: mul1"
grep -qx '  prob (Softmax) <- y -> prob \[1,5\]' "$work/list" || fail "list: prob"
[ "$(grep -c '^\* ' "$work/list")" -eq 6 ] || fail "list: marked layers"
grep -q '<svg' "$work/g.html" || fail "html: no svg"
[ "$(grep -c 'class="layer in' "$work/g.html")" -eq 6 ] || fail "html: marked layers"
grep -q 'class="layer in start"><title>relu1 (Relu)' "$work/g.html" || fail "html: start"
grep -q 'class="layer in end"><title>relu2 (Relu)' "$work/g.html" || fail "html: end"

# With the offline model and its dump: the ops carrying the sub-model's layers and the start
# layer's input data. layer0 carries conv1 and relu1 (fused), layer5 the classifier.
"$gen" --out "$work/d" --ops 6 --inputs 1 --min-elements 6 --max-elements 6 --dtypes float32 >/dev/null
op() {  # name inputs original-names
  local origin=""
  for n in $3; do origin+="${origin:+,}\"$n\""; done
  printf '{"name":"%s","type":"X","input":[%s],"attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":[%s]}}}]}' \
    "$1" "$2" "$origin"
}
cat > "$work/om.json" <<JSON
{"name":"other_net","graph":[{"name":"other_net","op":[
 $(op layer0 '' 'conv1 relu1'), $(op layer1 '"layer0:0"' 'conv2'), $(op layer2 '"layer0:0"' 'kconst mul1'),
 $(op layer3 '"layer1:0","layer2:0"' 'add1 relu2'), $(op layer4 '"layer3:0"' 'pool flat'),
 $(op layer5 '"layer4:0"' 'fc prob side')]}]}
JSON
"$dumpcmp" extract --model "$work/m.onnx" --graph "$work/om.json" --dump "$work/d/left" \
  --start conv1 --end relu2 -out "$work/e" > "$work/log" 2> "$work/err"
out=$(ls -d "$work"/e/dump_result_*)
grep -q 'warning: the offline model .* was made from a model named "other_net", not "net"' \
  "$work/err" || fail "model name warning: $(cat "$work/err")"
ls "$out/dump_data" | grep -v '\.input\.' | sed 's/^[A-Za-z0-9]*\.\(layer[0-9]\)\..*/\1/' | sort |
  tr '\n' ' ' > "$work/ops"
[ "$(cat "$work/ops")" = "layer0 layer1 layer2 layer3 " ] || fail "copied dumps: $(cat "$work/ops")"
ls "$out"/dump_data/*.layer0.*.input.0.npy "$out"/dump_data/*.layer0.*.input.0.float16.bin \
  > /dev/null || fail "start layer's input data"
log=$out/extract_log.txt
grep -qx "Output Dump Path:$out/dump_data" "$log" || fail "log: output dump path"
grep -qx 'Dump Layer:\[add1, relu2\]' "$log" || fail "log: dump layer"
grep -A3 -x 'Dump Layer:\[add1, relu2\]' "$log" | grep -q '^Output File:[A-Za-z0-9]*\.layer3\.' ||
  fail "log: output file"
grep -A3 -x 'Dump Layer:\[add1, relu2\]' "$log" | grep -q '^Input File:[A-Za-z0-9]*\.layer1\.' ||
  fail "log: input file"
grep -q 'Dump Layer:\[fc' "$log" && fail "log: layer5 is outside the sub-model"
grep -qx 'Export Layer:conv1,relu1,conv2,kconst,mul1,add1,relu2' "$log" || fail "log: export layer"

# Without value_info the intermediate tensors' types are unknown: refused, then taken from the
# offline model's origin shapes.
"$py" "$helper" strip "$work/m.onnx" "$work/novi.onnx"
rc=0
"$dumpcmp" extract --model "$work/novi.onnx" --start relu1 --end relu2 -out "$work/n" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -qF 'the type of "c1" (an input of layer "relu1") is unknown' "$work/log" ||
  fail "untyped input: $rc $(cat "$work/log")"
origin() {  # name origin-layer
  printf '{"name":"%s","type":"X","input":[],"output_desc":[{"dtype":"DT_FLOAT","layout":"NCHW","attr":[{"key":"_datadump_origin_name","value":{"s":"%s"}},{"key":"_datadump_origin_output_index","value":{"i":0}},{"key":"_datadump_origin_format","value":{"s":"NCHW"}},{"key":"origin_shape","value":{"list":{"i":[1,4,6,6]}}}]}]}' "$1" "$2"
}
echo "{\"graph\":[{\"name\":\"net\",\"op\":[$(origin layer0 conv1),$(origin layer3 relu2)]}]}" > "$work/origin.json"
"$dumpcmp" extract --model "$work/novi.onnx" --graph "$work/origin.json" --dump "$work/d/left" \
  --start relu1 --end relu2 -out "$work/n" > "$work/log" 2> "$work/err"
[ ! -s "$work/err" ] || fail "stderr: $(cat "$work/err")"
"$py" "$helper" check "$work/m.onnx" "$(ls -d "$work"/n/dump_result_*)/dump.onnx" c1 -- r2 ||
  fail "typed from the offline model"

expect() {  # expect MESSAGE args...
  local message=$1; shift
  local rc=0
  "$dumpcmp" extract --model "$work/m.onnx" -out "$work/x" "$@" > "$work/log" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc for $*: $(cat "$work/log")"
  grep -qF "$message" "$work/log" || fail "message for $*: $(cat "$work/log")"
}
expect 'the start layer "nothing" is not in the model' --start nothing --end relu2
expect 'the end layer "nothing" is not in the model' --start relu1 --end nothing
expect 'the end layer comes before the start layer' --start relu2 --end conv1
expect 'they are not connected' --start side --end relu2
[ ! -e "$work/x" ] || [ -z "$(ls "$work/x")" ] || fail "a refused export wrote files"
# A malformed model is named.
head -c 100 "$work/m.onnx" > "$work/bad.onnx"
rc=0
"$dumpcmp" extract --model "$work/bad.onnx" --start relu1 --end relu2 -out "$work/x" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "bad.onnx" "$work/log" || fail "truncated model: $rc $(cat "$work/log")"
echo "extract onnx: ok"
