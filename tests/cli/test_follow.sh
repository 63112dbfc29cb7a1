#!/usr/bin/env bash
# compare --follow: started before the device run, with a writer that writes dumps slowly, in two
# pieces each (a partial file for a while) and out of timestamp order. Every dump is compared live
# as it completes, the first divergent op is named as soon as it shows, and the result file equals
# a normal compare of the finished directory. Ctrl-C and --until end the watch with complete,
# valid results for the dumps that were complete; nothing partial is left.
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
"$gen" --out g --ops 8 --seed 3 --noise 0.01 > /dev/null
cat > writer.py <<'PY'
import os, sys, time
src, dst, pause = sys.argv[1], sys.argv[2], float(sys.argv[3])
names = sorted(os.listdir(src))
os.makedirs(dst, exist_ok=True)
for name in names[1::2] + names[0::2]:  # out of timestamp order
    data = open(os.path.join(src, name), "rb").read()
    with open(os.path.join(dst, name), "wb") as f:
        f.write(data[:len(data) // 2])
        f.flush()
        time.sleep(pause)  # a partial dump for a while
        f.write(data[len(data) // 2:])
    time.sleep(0.2)
PY
"$dumpcmp" compare -m g/left -g g/right -out full --device cpu --quiet

# The whole run, watched from before its directory exists; the limit makes layer2's output the
# first divergent op (its input passes).
python3 writer.py g/left npu 0.6 &
"$dumpcmp" compare -m npu -g g/right -out live --follow --idle 3 --device cpu \
  --threshold CosineSimilarity=0.999981 > live.log 2>&1 || fail "follow: $(cat live.log)"
wait
[ "$(grep -c '^dumpcmp: live ' live.log)" -eq 16 ] || fail "not every row was shown live: $(cat live.log)"
grep -q "first divergent op so far: layer2 " live.log || fail "no first divergent op: $(cat live.log)"
grep -q "stopped following (idle): 8 complete dumps" live.log || fail "end: $(cat live.log)"
cmp -s live/result_*.csv full/result_*.csv || fail "the result differs from a normal compare"

# Ctrl-C in the middle: the result holds the complete dumps only, and is whole.
python3 writer.py g/left npu2 1.5 &
writer=$!
"$dumpcmp" compare -m npu2 -g g/right -out cut --follow --idle 0 --device cpu > cut.log 2>&1 &
follower=$!
for _ in $(seq 100); do
  [ "$(grep -c '^dumpcmp: live ' cut.log)" -ge 4 ] && break
  sleep 0.2
done
kill -INT "$follower"
wait "$follower" || fail "interrupted follow exited $?: $(cat cut.log)"
kill "$writer" 2>/dev/null || true
grep -q "stopped following (interrupted)" cut.log || fail "interrupt: $(cat cut.log)"
rows=$(($(wc -l < cut/result_*.csv) - 1))
[ "$rows" -ge 4 ] && [ "$rows" -lt 16 ] || fail "$rows rows after Ctrl-C"
python3 - cut/result_*.csv full/result_*.csv <<'PY' || fail "rows after Ctrl-C are not the full run's"
import csv, sys
cut = list(csv.reader(open(sys.argv[1], newline="")))
whole = list(csv.reader(open(sys.argv[2], newline="")))
assert cut[0] == whole[0]
at = whole[0].index("TensorIndex")
full = {r[at]: r[1:] for r in whole[1:]}  # the Index column counts the ops compared
for row in cut[1:]:
    assert row[1:] == full[row[at]], row
PY
[ -z "$(find cut -name '*.partial')" ] || fail "partial files left"

# --until: the watch ends once that op is compared.
rm -rf npu3
python3 writer.py g/left npu3 0.3 &
"$dumpcmp" compare -m npu3 -g g/right -out until --follow --until layer0 --idle 30 --device cpu \
  > until.log 2>&1 || fail "until: $(cat until.log)"
wait
grep -q "stopped following (op reached)" until.log || fail "until: $(cat until.log)"
grep -q ",layer0:output:0," until/result_*.csv || fail "until: layer0 is not in the result"

# What it cannot follow is refused.
rc=0
"$dumpcmp" compare -m npu -g g/right -f x.json -out no --follow > no.log 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q -- "--fusion_rule_file excludes --follow" no.log || fail "refusal: $rc"
echo "follow: ok"
