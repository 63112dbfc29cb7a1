#!/usr/bin/env bash
# End to end: dumpcmp extract selects the ops on data paths between two ops of a model graph,
# copies their dumps, exports the start op's inputs (.npy and float16 .bin) and logs every file;
# wrong choices of ops are refused with the op named.
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$gen" --out "$work/d" --ops 6 --inputs 1 --min-elements 6 --max-elements 6 --dtypes float32 >/dev/null
# layer0 -> layer1 -> layer2 -> layer4, layer1 -> layer3 -> layer4, layer0 -> layer5 (a side branch);
# the control edge and the empty input are not data edges.
op() {  # name id inputs...
  local name=$1 id=$2; shift 2
  local inputs=""
  for i in "$@"; do inputs+="${inputs:+,}\"$i\""; done
  printf '{"name":"%s","type":"Relu","id":%s,"input":[%s]}' "$name" "$id" "$inputs"
}
cat > "$work/model.json" <<JSON
{"graph":[{"name":"g","op":[
 $(op layer0 1), $(op layer1 2 layer0:0), $(op layer2 3 layer1:0 layer5:-1), $(op layer3 4 layer1:0 ""),
 $(op layer4 5 layer2:0 layer3:0), $(op layer5 6 layer0:0)]}]}
JSON
"$dumpcmp" extract --graph "$work/model.json" --dump "$work/d/left" --start layer1 --end layer4 \
  -out "$work/out" > "$work/log"
ls "$work/out/dump_data" | sed 's/^[A-Za-z0-9]*\.\(layer[0-9]\)\..*/\1/' | sort | tr '\n' ' ' > "$work/ops"
[ "$(cat "$work/ops")" = "layer1 layer2 layer3 layer4 " ] || fail "selected ops: $(cat "$work/ops")"
grep -q '^Dump Layer: 4 ops from layer1 to layer4$' "$work/out/extract_log.txt" || fail "log header"
grep -q '^Export Layer: layer1' "$work/out/extract_log.txt" || fail "export layer"
npy=$(ls "$work"/out/*.input.0.npy)
bin=$(ls "$work"/out/*.input.0.float16.bin)
[ "$(stat -c %s "$bin")" -eq 12 ] || fail "float16 bin size"  # 6 elements x 2 bytes
# the .npy holds the dump's input bytes unchanged (float32, 6 elements)
dump=$(ls "$work"/d/left/*.layer1.*)
python3 - "$npy" "$dump" <<'PY' || fail ".npy content"
import struct, sys
npy = open(sys.argv[1], "rb").read()
header_len = struct.unpack("<H", npy[8:10])[0]
values = struct.unpack("<6f", npy[10 + header_len:])
raw = open(sys.argv[2], "rb").read()
# the dump's payload ends with input 0 then output 0 (6 float32 each)
assert values == struct.unpack("<6f", raw[-48:-24]), values
PY

expect() {  # expect MESSAGE args...
  local message=$1; shift
  local rc=0
  "$dumpcmp" extract --graph "$work/model.json" --dump "$work/d/left" -out "$work/x" "$@" > "$work/log" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc for $*"
  grep -qF "$message" "$work/log" || fail "message for $*: $(cat "$work/log")"
}
expect 'the start op "nothing" is not in the graph' --start nothing --end layer4
expect 'the end op comes before the start op' --start layer4 --end layer1
expect 'they are not connected' --start layer5 --end layer3
echo "extract: ok"
