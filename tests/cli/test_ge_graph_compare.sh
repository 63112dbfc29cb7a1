#!/usr/bin/env bash
# End to end: a GE graph dump (protobuf text, ge_proto_*_Build.txt) works wherever an atc JSON
# does (-f, -q, --close_fusion_rule_file, extract --graph) and gives the same result files. Each
# JSON model is written out as protobuf text by the small converter below, independent of
# dumpcmp's reader.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
data="$root/tests/data/msaccucmp_fusion"
command -v python3 >/dev/null || { echo "python3 absent: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# atc JSON -> protobuf text of the same ge.proto.ModelDef: objects are messages, arrays repeated
# fields (an empty one is left out), enum fields bare names, and a singular AttrDef "s" (which atc
# C-escapes) is unescaped back into the bytes the text holds.
to_pbtxt() {
  python3 - "$1" "$2" <<'PY'
import json, sys

ENUMS = {"dtype", "val_type"}

def unescape_c(s):
    out, i = bytearray(), 0
    simple = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92}
    while i < len(s):
        if s[i] == "\\" and s[i + 1] in simple:
            out.append(simple[s[i + 1]]); i += 2
        elif s[i] == "\\":
            out.append(int(s[i + 1:i + 4], 8)); i += 4
        else:
            out += s[i].encode(); i += 1
    return bytes(out)

def quote(b):
    out = []
    for c in b:
        if c in (34, 92): out.append("\\" + chr(c))
        elif 0x20 <= c < 0x7f: out.append(chr(c))
        else: out.append("\\%03o" % c)
    return '"' + "".join(out) + '"'

def scalar(key, v, in_attr_value):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)): return repr(v)
    if key in ENUMS: return v
    if key == "s" and in_attr_value: return quote(unescape_c(v))
    return quote(v.encode())

def message(obj, indent, attr_value=False):
    lines = []
    for key, v in obj.items():
        values = v if isinstance(v, list) else [v]
        for item in values:
            if isinstance(item, dict):
                lines.append("%s%s {" % (indent, key))
                lines += message(item, indent + "  ", attr_value=(key == "value"))
                lines.append(indent + "}")
            else:
                lines.append("%s%s: %s" % (indent, key, scalar(key, item, attr_value and not isinstance(v, list))))
    return lines

model = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as f:
    f.write("# converted from %s\n" % sys.argv[1].rsplit("/", 1)[-1])
    f.write("\n".join(message(model, "")) + "\n")
PY
}

# The result CSVs of two runs must be equal (their names carry the time stamp).
same_results() {  # label, dir a, dir b
  local a b
  a=$(ls "$2"/*_*.csv) b=$(ls "$3"/*_*.csv)
  [ "$(echo "$a" | wc -l)" -eq 1 ] && [ "$(echo "$b" | wc -l)" -eq 1 ] || fail "$1: result files"
  cmp -s "$a" "$b" || { diff "$a" "$b" | head -20; fail "$1: results differ"; }
  [ "$(wc -l < "$a")" -gt 1 ] || fail "$1: no rows"
}

run() {  # out dir, then compare arguments
  local out=$1; shift
  "$dumpcmp" compare "$@" -out "$out" --device cpu > "$out.log" 2>&1 || true
  [ -n "$(ls "$out"/*_*.csv 2>/dev/null)" ] || { cat "$out.log"; fail "no result in $out"; }
}

# A generated offline model: NC1HWC0 fp16 NPU outputs vs fp32 .npy goldens.
"$gen" --out "$work/gen" --fusion --ops 6 --max-elements 512 >/dev/null
to_pbtxt "$work/gen/model.json" "$work/gen/ge_proto_00000001_Build.txt"
grep -q '^graph {$' "$work/gen/ge_proto_00000001_Build.txt" || fail "converter output"
run "$work/gen_json" -m "$work/gen/left" -g "$work/gen/right" -f "$work/gen/model.json"
run "$work/gen_txt" -m "$work/gen/left" -g "$work/gen/right" -f "$work/gen/ge_proto_00000001_Build.txt"
same_results generated "$work/gen_json" "$work/gen_txt"
grep -q '^0,Conv2D,conv0,float16,0,conv0,float32,' "$work"/gen_txt/result_*.csv || fail "generated rows"
[ "$(wc -l < "$(ls "$work"/gen_txt/result_*.csv)")" -eq 7 ] || fail "generated row count"

# The msaccucmp-checked cases: every relation, -r, -map, -q and -cf.
for m in basic/model.json quant/model.json quant/quant.json cf/open.json cf/close.json; do
  to_pbtxt "$data/$m" "$work/$(echo "$m" | tr / _).txt"
done
b="$data/basic"
run "$work/basic_json" -m "$b/left" -g "$b/right" -f "$b/model.json"
run "$work/basic_txt" -m "$b/left" -g "$b/right" -f "$work/basic_model.json.txt"
same_results basic "$work/basic_json" "$work/basic_txt"
run "$work/range_json" -m "$b/left" -g "$b/right" -f "$b/model.json" -r 2,12,3
run "$work/range_txt" -m "$b/left" -g "$b/right" -f "$work/basic_model.json.txt" -r 2,12,3
same_results range "$work/range_json" "$work/range_txt"
run "$work/map_json" -m "$b/left" -g "$b/right" -f "$b/model.json" -map
run "$work/map_txt" -m "$b/left" -g "$b/right" -f "$work/basic_model.json.txt" -map
same_results map "$work/map_json" "$work/map_txt"
q="$data/quant"
run "$work/fq_json" -m "$q/om_left" -g "$q/right" -f "$q/model.json" -q "$q/quant.json"
run "$work/fq_txt" -m "$q/om_left" -g "$q/right" -f "$work/quant_model.json.txt" \
  -q "$work/quant_quant.json.txt"
same_results quant "$work/fq_json" "$work/fq_txt"
c="$data/cf"
run "$work/cf_json" -m "$c/left" -g "$c/right" -f "$c/open.json" -cf "$c/close.json"
run "$work/cf_txt" -m "$c/left" -g "$c/right" -f "$work/cf_open.json.txt" \
  -cf "$work/cf_close.json.txt"
same_results cf "$work/cf_json" "$work/cf_txt"

# A syntax error names the file and the line; the run stops with exit 2.
printf 'graph {\n  op {\n    name: "a\n' > "$work/ge_proto_broken_Build.txt"
rc=0
"$dumpcmp" compare -m "$b/left" -g "$b/right" -f "$work/ge_proto_broken_Build.txt" \
  -out "$work/broken" > "$work/log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "broken text exit $rc"
grep -qF "ge_proto_broken_Build.txt:3: unterminated string" "$work/log" ||
  fail "broken text message: $(cat "$work/log")"

# extract reads the graph from GE text too.
"$gen" --out "$work/x" --ops 3 --inputs 1 --min-elements 4 --max-elements 4 --dtypes float32 >/dev/null
cat > "$work/x/ge_proto_00000002_Build.txt" <<'TXT'
graph {
  name: "g"
  op { name: "layer0" type: "Relu" id: 1 }
  op { name: "layer1" type: "Relu" id: 2 input: "layer0:0" }
  op { name: "layer2" type: "Relu" id: 3 input: "layer1:0" }
}
TXT
"$dumpcmp" extract --graph "$work/x/ge_proto_00000002_Build.txt" --dump "$work/x/left" \
  --start layer1 --end layer2 -out "$work/x_out" > "$work/log" 2>&1 || fail "extract: $(cat "$work/log")"
grep -q '^Dump Layer: 2 ops from layer1 to layer2$' "$work/x_out/extract_log.txt" ||
  fail "extract log"
echo "GE graph text compare CLI: ok"
