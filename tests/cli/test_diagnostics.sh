#!/usr/bin/env bash
# Bad inputs are named (issue 16, diagnostics): a truncated dump, a garbage dump, a stray file, a
# subdirectory and a dangling link among good dumps. Each is named once on standard error as
# "dumpcmp: warning: FILE: problem" and in -out/dumpcmp_<ts>.log, the console ends with the count
# by kind, --quiet keeps only the log, and every clean row equals the clean run's.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
"$gen" --out d --ops 10 --seed 2 --noise 0.01 > /dev/null
"$dumpcmp" compare -m d/left -g d/right -out clean --device cpu --quiet 2> clean.err
[ ! -s clean.err ] || fail "a clean run warns: $(cat clean.err)"
[ "$(ls clean)" = "$(ls clean | grep '^result_')" ] || fail "a clean run leaves a log: $(ls clean)"

cp -r d bad
truncated=$(ls bad/left | sed -n 2p)
garbage=$(ls bad/left | sed -n 4p)
head -c 40 "bad/left/$truncated" > t && mv t "bad/left/$truncated"
head -c 3000 /dev/urandom > "bad/left/$garbage"
echo notes > bad/left/README.txt
mkdir bad/left/sub
ln -s nowhere bad/left/Add.dangling.1.1.1700000000009999

"$dumpcmp" compare -m bad/left -g bad/right -out o --device cpu > o.out 2> o.err
for f in "$truncated" "$garbage" README.txt sub Add.dangling.1.1.1700000000009999; do
  [ "$(grep -c "^dumpcmp: warning: bad/left/$f: " o.err)" = 1 ] || fail "$f not named once: $(cat o.err)"
  grep -q "bad/left/$f: " o/dumpcmp_*.log || fail "$f not in the log"
done
grep -q "^dumpcmp: 5 input problems (2 bad dump file, 3 skipped entry): bad/left/" o.out ||
  fail "counts: $(cat o.out)"
grep -q "(all in o/dumpcmp_[0-9]*.log)" o.out || fail "the log is not named"
# The rows of the two broken ops fail; every other row is the clean run's row.
bad_ops=$(echo "$truncated $garbage" | tr ' ' '\n' | cut -d. -f2 | paste -sd'|')
diff <(grep -vE ",($bad_ops)," clean/result_*.csv) <(grep -vE ",($bad_ops)," o/result_*.csv) > /dev/null ||
  fail "clean rows differ"
[ "$(grep -cE ",($bad_ops),.*header length" o/result_*.csv)" -ge 2 ] || fail "broken rows not flagged"

"$dumpcmp" compare -m bad/left -g bad/right -out q --device cpu --quiet > q.out 2> q.err
! grep -q "warning: bad/left" q.err || fail "--quiet printed the input problems"
[ "$(grep -c "" q/dumpcmp_*.log)" = 6 ] || fail "--quiet log: $(cat q/dumpcmp_*.log)"
echo "5 bad inputs named once each on stderr and in the log; clean rows intact; --quiet logs only"

# A whole run: a broken dump in one leaf is named once and logged with the run.
for dev in 0 1; do
  mkdir -p "tn/20240101120000/$dev/net_1/1/0" "tg/20240101120000/$dev/net_1/1/0"
  cp d/left/* "tn/20240101120000/$dev/net_1/1/0/"
  cp d/right/* "tg/20240101120000/$dev/net_1/1/0/"
done
head -c 3000 /dev/urandom > "tn/20240101120000/1/net_1/1/0/$garbage"
echo notes > "tn/20240101120000/0/net_1/1/0/notes.txt"
"$dumpcmp" compare --tree -m tn -g tg -out to --device cpu > to.out 2> to.err
for f in 1/net_1/1/0/$garbage 0/net_1/1/0/notes.txt; do
  [ "$(grep -c "^dumpcmp: warning: tn/20240101120000/$f: " to.err)" = 1 ] ||
    fail "tree: $f not named once: $(cat to.err)"
  grep -q "tn/20240101120000/$f: " to/dumpcmp_*.log || fail "tree: $f not in the log"
done
grep -q "^dumpcmp: 2 input problems (1 bad dump file, 1 skipped entry)" to.out ||
  fail "tree counts: $(cat to.out)"
echo "a whole run: the broken dump and the stray file of its leaves named and logged"

# A dump that changes after planning: its rows fail when they run, and it is named as well.
cp -r d late
"$dumpcmp" compare -m late/left -g late/right --plan-only late.plan -out lp --quiet
changed=$(ls late/left | sed -n 3p)
head -c 40 "late/left/$changed" > t && mv t "late/left/$changed"
"$dumpcmp" compare --plan late.plan -out lr --device cpu > lr.out 2> lr.err
[ "$(grep -c "^dumpcmp: warning: .*/late/left/$changed: " lr.err)" = 1 ] ||
  fail "a file changed after planning is not named: $(cat lr.err)"
grep -q "late/left/$changed" lr/dumpcmp_*.log || fail "the changed file is not in the log"
grep -q "^dumpcmp: 1 input problem (1 bad dump file)" lr.out || fail "counts: $(cat lr.out)"
echo "a dump changed after planning: named on stderr and in the log"
# Rows that fail because of their input name the file too (issue 34): through a fusion rule, a
# dump whose payload disagrees with its shape, a dimension too large to be real, an unknown format
# code, a golden .npy whose shape does not fit, a rule input naming an op the rule lacks; and NPU
# vs NPU, shapes that disagree. Each: one warning naming the file, its log
# entry with the kind, and the row's own reason in the CSV.
proto=$root/host/io/dump_data.proto
redump() {  # SRC DST SED_EXPR: the dump's header edited as protobuf text, its payload kept
  python3 - "$1" > h.bin <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(); n = struct.unpack('<Q', d[:8])[0]; sys.stdout.buffer.write(d[8:8 + n])
PY
  protoc -I"$(dirname "$proto")" --decode=dumpcmp.wire.DumpData "$proto" < h.bin | sed "$3" |
    protoc -I"$(dirname "$proto")" --encode=dumpcmp.wire.DumpData "$proto" > h2.bin
  python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(); n = struct.unpack('<Q', d[:8])[0]
h = open('h2.bin', 'rb').read(); open(sys.argv[2], 'wb').write(struct.pack('<Q', len(h)) + h + d[8 + n:])
PY
}
layouts=$root/tests/data/msaccucmp_fusion/layouts
act=left/Relu.act.4.0.1700000000000004  # one fp16 NC1HWC0 output [1,1,2,3,16]
# named CASE KIND FILE TEXT: the run of CASE (-f) names FILE once with TEXT, logs it as KIND, and
# its row's reason says the same.
named() {
  (cd "$1" && "$dumpcmp" compare -m left -g right -f model.json -out out --device cpu > ../"$1".out \
    2> ../"$1".err) || true
  [ "$(grep -cF "dumpcmp: warning: $3: $4" "$1".err)" = 1 ] || fail "$1: not named: $(cat "$1".err)"
  grep -qF "$2: $3: $4" "$1"/out/dumpcmp_*.log || fail "$1: not in the log: $(cat "$1"/out/dumpcmp_*.log)"
  local reason=${4#*: }
  grep -qF "${reason//\"/\"\"}" "$1"/out/result_*.csv || fail "$1: the row does not say why"
}
cp -r "$layouts" shape && redump "$layouts/$act" "shape/$act" 's/dim: 3/dim: 4/'
named shape "bad tensor" "$act" "act:output:0: [act] cannot reshape array of size 96 into shape (1, 1, 2, 4, 16)"
cp -r "$layouts" huge && redump "$layouts/$act" "huge/$act" 's/dim: 3/dim: 4611686018427387904/'
named huge "bad tensor" "act:output:0: $act" "output 0 has shape [1,1,2,4611686018427387904,16], whose element count overflows"
cp -r "$layouts" code && redump "$layouts/$act" "code/$act" 's/format: 3/format: 77/'
named code "bad tensor" "$act" "act:output:0: The format(77) does not support."
cp -r "$layouts" golden && python3 "$here/make_npy.py" golden/right/act.0.1700000000000000.npy '<f4' 40 $(seq 40)
named golden "bad tensor" right/act.0.1700000000000000.npy "act:output:0: [act] Due to the different shapes on the left and right,the left dump data(1, 2, 3, 16) can not be compared to the right dump data(40, 1, 1, 1)."
cp -r "$layouts" rule && sed -i 's/"x:0"/"nosuch:0"/' rule/model.json
named rule "bad rule file" model.json 'There is no "nosuch" in the fusion rule file.'
# NPU vs NPU: a left shape of 5 elements where the right one has 11.
add=$(ls d/left | grep '\.layer1\.')
cp -r d restored && redump "d/left/$add" "restored/left/$add" 's/dim: 11$/dim: 5/'
"$dumpcmp" compare -m restored/left -g restored/right -out rn --device cpu > rn.out 2> rn.err
grep -qF "dumpcmp: warning: restored/left/$add: [layer1] The shape does not match ((5) vs (11)) for layer1:input:0." rn.err ||
  fail "NPU vs NPU, sizes that disagree once restored: $(cat rn.err)"
grep -q "^bad tensor: restored/left/" rn/dumpcmp_*.log || fail "NPU vs NPU: not in the log"
echo "rows failing on their input name the file: payload vs shape, huge dim, unknown format, golden shape, rule input, NPU-vs-NPU shapes"

if "$dumpcmp" --version | grep "^scale-out: MPI" > /dev/null && command -v mpirun > /dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
  # Under ASan: Open MPI's own allocations are not ours (as in test_mpi.sh).
  export LSAN_OPTIONS="suppressions=$here/lsan_mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
  export OMPI_MCA_mca_base_component_disable_dlclose=1
  # The changed file in the second rank's share: rank 0 names it.
  cp -r d late2
  "$dumpcmp" compare -m late2/left -g late2/right --plan-only late2.plan -out lp2 --quiet
  last=$(ls late2/left | grep '\.layer9\.' | head -n 1)  # the last op: in rank 1's share
  head -c 40 "late2/left/$last" > t && mv t "late2/left/$last"
  mpirun --oversubscribe --bind-to none -np 2 "$dumpcmp" compare --plan late2.plan -out lr2 \
    --device cpu > lr2.out 2> lr2.err
  grep -q "^dumpcmp: warning: .*/late2/left/$last: " lr2.err || fail "rank 1's problem: $(cat lr2.err)"
  grep -q "late2/left/$last" lr2/dumpcmp_*.log || fail "rank 1's problem is not in the log"
  mpirun --oversubscribe --bind-to none -np 2 "$dumpcmp" compare --tree -m tn -g tg -out to2 \
    --device cpu > to2.out 2> to2.err
  grep -q "^dumpcmp: warning: tn/20240101120000/1/net_1/1/0/$garbage: " to2.err ||
    fail "tree over 2 ranks: $(cat to2.err)"
  grep -q "(rank 1)" to2.out || fail "tree over 2 ranks: no leaf on rank 1"
  echo "over 2 ranks: the other rank's problems named by rank 0 (one compare and a tree)"
fi
