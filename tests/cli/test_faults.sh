#!/usr/bin/env bash
# Faults survived (issue 16, docs/reliability.md), each checked here:
#  1. SIGTERM / SIGINT mid-run: exit by the signal, no result file, no partial file left.
#  2. A full file system for -out (a 16 KiB tmpfs; needs root): exit 2 naming the file, nothing left.
#  3. Unreadable files and directories for an unprivileged user (root drops to nobody with setpriv):
#     named, their rows fail, the run goes on.
#  4. A symlink loop and a dangling link inside a dump tree: discovery ends, the run goes on.
#  5. 100,000 dump files in one directory: compared, every row present.
#  6. Hostile fusion JSON and GE graph text (deep nesting, a 64 MiB string, huge numbers): refused
#     naming the file, in bounded time.
#  7. Shapes whose sizes would need absurd memory (binary dump, .npy): the row fails, nothing is
#     allocated (peak RSS stays small).
#  8. A detail op name with "../" writes nothing outside -out.
# A case that cannot run here says SKIP; the test fails if any case fails.
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3
work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
  mountpoint -q "$work/full" 2>/dev/null && umount "$work/full"
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; }
cd "$work"
proto=$root/host/io/dump_data.proto
# A binary dump from a DumpData text (protoc --encode) and a payload of N bytes.
binary_dump() {  # path, header text, payload bytes
  protoc -I"$(dirname "$proto")" --encode=dumpcmp.wire.DumpData "$proto" <<< "$2" > header.bin
  python3 - "$1" "$3" <<'EOF'
import struct, sys
header = open('header.bin', 'rb').read()
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<Q', len(header)) + header + bytes(int(sys.argv[2])))
EOF
}
# Peak RSS of a command in MiB (the command's own status is ignored).
peak_mib() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"
}

"$gen" --out d --ops 300 --min-elements 100000 --max-elements 200000 --inputs 1 --seed 3 > /dev/null
"$gen" --out u --ops 6 --seed 4 > /dev/null
"$dumpcmp" compare -m u/left -g u/right -out uclean --device cpu --quiet

# 1. Signals: the partial CSV exists once rows run; the signal comes then.
for sig in TERM INT; do
  out=sig_$sig
  mkdir "$out"
  "$dumpcmp" compare -m d/left -g d/right -out "$out" --hdf5 "$out/r.h5" --device cpu --quiet \
    2> "$out.err" &
  pid=$!
  for _ in $(seq 500); do
    compgen -G "$out/*.partial" > /dev/null && break
    sleep 0.01
  done
  compgen -G "$out/*.partial" > /dev/null || fail "SIG$sig: the run ended before it could be interrupted"
  kill -"$sig" "$pid"
  status=0
  wait "$pid" || status=$?
  expected=$((128 + $(kill -l "$sig")))
  [ "$status" = "$expected" ] || fail "SIG$sig: exit status $status, expected $expected"
  [ -z "$(ls "$out")" ] || fail "SIG$sig: files left: $(ls "$out")"
  grep -q "interrupted: partial output files removed" "$out.err" || fail "SIG$sig: not said"
done
echo "ok 1: SIGTERM and SIGINT leave nothing"

# 2. Full file system.
if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=16k tmpfs full 2> /dev/null; then
  status=0
  "$dumpcmp" compare -m d/left -g d/right -out full --device cpu --quiet 2> full.err || status=$?
  [ "$status" = 2 ] || fail "full disk: exit $status"
  grep -q "full/result_[0-9]*.csv: .*No space left on device" full.err || fail "full disk: $(cat full.err)"
  [ -z "$(ls full)" ] || fail "full disk: files left: $(ls full)"
  umount full
  echo "ok 2: a full file system is an error naming the file, nothing left"
else
  skip "2: mounting a tmpfs needs root"
fi

# 3. Unreadable files and directories, as an unprivileged user.
as_user=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv > /dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups "$dumpcmp" --version > /dev/null 2>&1; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  fi
fi
if [ "$(id -u)" != 0 ] || ((${#as_user[@]})); then
  locked=$(ls u/left | sed -n 2p)
  chmod 000 "u/left/$locked"
  for dev in 0 1; do
    mkdir -p "tree/2024010112000$dev/$dev/ge_default_20240101115959_1/1"
    cp -r u/left "tree/2024010112000$dev/$dev/ge_default_20240101115959_1/1/0"
  done
  chmod 000 tree/20240101120001/1
  mkdir uo && chmod 777 uo
  status=0
  "${as_user[@]}" "$dumpcmp" compare -m u/left -g u/right -out uo --device cpu > uo.out 2> uo.err ||
    status=$?
  [ "$status" = 0 ] || fail "unreadable file: exit $status: $(cat uo.err)"
  [ "$(grep -c "warning: u/left/$locked: .*Permission denied" uo.err)" = 1 ] ||
    fail "unreadable file not named once: $(cat uo.err)"
  op=$(echo "$locked" | cut -d. -f2)
  diff <(grep -v ",$op," uclean/result_*.csv) <(grep -v ",$op," uo/result_*.csv) > /dev/null ||
    fail "the other rows differ"
  grep ",$op," uo/result_*.csv | grep -q "Permission denied" || fail "the unreadable op did not fail"
  status=0
  "${as_user[@]}" "$dumpcmp" compare --tree -m tree -g u/right -out uo/t --device cpu > ut.out 2> ut.err ||
    status=$?
  [ "$status" = 0 ] || fail "unreadable directory: exit $status: $(cat ut.err)"
  grep -q "tree/20240101120001/1: .*Permission denied" ut.err ||
    fail "unreadable directory not named: $(cat ut.err)"
  grep -q "tree/20240101120001/1: .*Permission denied" uo/t/dumpcmp_*.log ||
    fail "unreadable directory not in the log"
  compgen -G "uo/t/0_*_result_*.csv" > /dev/null || fail "unreadable directory: nothing compared"
  chmod 755 tree/20240101120001/1
  echo "ok 3: unreadable files and directories are named, the run goes on"
else
  skip "3: no way to drop to an unprivileged user (setpriv)"
fi

# 4. A symlink loop and a dangling link in a tree.
leaf=loop/20240101120000/0/ge_default_20240101115959_1/1/0
mkdir -p "$(dirname "$leaf")"
cp -r u/left "$leaf"
ln -s .. "$leaf/up"
ln -s ../../../.. "$(dirname "$leaf")/again"
ln -s missing "$leaf/Add.dangling.1.1.1700000000009999"
status=0
timeout 60 "$dumpcmp" compare --tree -m loop -g u/right -out lo --device cpu > lo.out 2> lo.err ||
  status=$?
[ "$status" != 124 ] || fail "symlink loop: discovery did not end"
[ "$status" = 0 ] || fail "symlink loop: exit $status: $(cat lo.err)"
grep -q "Add.dangling" lo.err || fail "dangling link not named: $(cat lo.err)"
grep -q "Add.dangling" lo/dumpcmp_*.log || fail "dangling link not in the log"
compgen -G "lo/0_*_result_*.csv" > /dev/null || fail "symlink loop: the leaf was not compared"
echo "ok 4: symlink loops end, dangling links are named"

# 5. 100,000 files in one directory (hard links to one small dump, each its own op).
binary_dump one.dump 'op_name: "op" output { data_type: 1 format: 2 shape { dim: 4 } size: 16 }' 16
python3 - <<'EOF'
import os, shutil
for side in ('left', 'right'):
    os.makedirs('many/' + side)
    for i in range(100000):
        source = 'one.dump.%s.%d' % (side, i // 50000)  # a file takes at most 65,000 links
        if not os.path.exists(source):
            shutil.copy('one.dump', source)
        os.link(source, 'many/%s/Add.op%d.1.1.%d' % (side, i, 1700000000000000 + i))
EOF
"$dumpcmp" compare -m many/left -g many/right -out mo --device cpu --quiet
[ "$(wc -l < mo/result_*.csv)" = 100001 ] || fail "100,000 files: $(wc -l < mo/result_*.csv) lines"
echo "ok 5: 100,000 files in one directory"

# 6. Hostile fusion JSON and GE graph text.
python3 - <<'EOF'
open('deep.json', 'w').write('[' * 200000)
open('string.json', 'w').write('{"name": "' + 'a' * (64 << 20) + '"}')
open('number.json', 'w').write('{"graph": [{"op": [{"name": "x", "id": 1e999999}]}]}')
open('deep.txt', 'w').write('graph {' * 200000)
open('string.txt', 'w').write('name: "' + 'a' * (64 << 20) + '"')
import os
os.makedirs('npyg')  # a numpy golden side, so that -f is read
h = b"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
h += b' ' * (63 - len(h) % 64) + b'\n'
open('npyg/layer0.0.1700000000000000.npy', 'wb').write(
    b'\x93NUMPY\x01\x00' + len(h).to_bytes(2, 'little') + h + bytes(16))
EOF
for f in deep.json string.json number.json deep.txt string.txt; do
  status=0
  timeout 60 "$dumpcmp" compare -m u/left -g npyg -f "$f" -out jo --device cpu --quiet \
    2> "$f.err" || status=$?
  [ "$status" = 2 ] || fail "$f: exit $status: $(head -c 300 "$f.err")"
  grep -q "^dumpcmp: error: $f" "$f.err" || fail "$f: not named: $(head -c 300 "$f.err")"
done
echo "ok 6: hostile JSON and graph text are refused in bounded time"

# 7. Absurd shapes: 2^40 x 2^40 elements in a 16-byte payload; a .npy of 2^32 x 2^32.
mkdir -p absurd/left absurd/right
for side in left right; do
  binary_dump "absurd/$side/Add.huge.1.1.1700000000000000" \
    'op_name: "huge" output { data_type: 1 format: 2 shape { dim: 1099511627776 dim: 1099511627776 } size: 16 }' 16
done
python3 -c "
import struct
h = b\"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\"
h += b' ' * (63 - len(h) % 64) + b'\\n'
open('huge.npy', 'wb').write(b'\\x93NUMPY\\x01\\x00' + struct.pack('<H', len(h)) + h + bytes(16))"
rss=$(peak_mib "$dumpcmp" compare -m absurd/left -g absurd/right -out ao --device cpu --quiet)
[ "$rss" -lt 1024 ] || fail "absurd shape: peak RSS $rss MiB"
grep -q ",huge,.*element count overflows" ao/result_*.csv || fail "absurd shape: row not failed"
rss_npy=$(peak_mib "$dumpcmp" compare -m huge.npy -g huge.npy -out an --device cpu --quiet)
[ "$rss_npy" -lt 1024 ] || fail "absurd .npy: peak RSS $rss_npy MiB"
grep -q "huge.npy: npy shape \[4294967296,4294967296\] is too large" an/dumpcmp_*.log ||
  fail "absurd .npy: not named"
echo "ok 7: absurd shapes fail their row without allocating ($rss and $rss_npy MiB peak)"

# 8. A detail op name that climbs out of -out.
mkdir -p deto/inner
status=0
"$dumpcmp" compare -m u/left -g u/right -out deto/inner -op '../../escaped' --device cpu --quiet \
  2> /dev/null || status=$?
[ -z "$(find . -name '*escaped*' -not -path './deto/inner/*')" ] || fail "detail wrote outside -out"
echo "ok 8: detail names stay inside -out"
