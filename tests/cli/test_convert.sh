#!/usr/bin/env bash
# End to end: dumpcmp convert -t dump turns .npy files into dumps and back bit for bit, for every
# dtype .npy holds; bad input names the file (the byte layout of convert's outputs is checked
# against msaccucmp in test_msaccucmp_convert_golden.sh).
set -euo pipefail
dumpcmp=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/npy"
i=0
for d in '<f2' '<f4' '<f8' '|i1' '|u1' '<i2' '<u2' '<i4' '<u4' '<i8' '<u8' '|b1' '<c8' '<c16'; do
  python3 "$here/make_npy.py" "$work/npy/op$i.0.1700000000000001.npy" "$d" 2,3 1 0 3 4 5 1
  i=$((i + 1))
done
python3 "$here/make_npy.py" "$work/npy/two.0.1700000000000002.npy" '<f4' 4 1.5 2 3 4
python3 "$here/make_npy.py" "$work/npy/two.1.1700000000000002.npy" '<i4' 2,2 1 2 3 4
"$dumpcmp" convert -d "$work/npy" -t dump -out "$work/dump" > "$work/log"
[ "$(ls "$work/dump" | wc -l)" -eq 15 ] || fail "dump count: $(ls "$work/dump")"
"$dumpcmp" convert -d "$work/dump" -out "$work/back" > "$work/log" 2>&1
for f in "$work"/npy/op*.npy; do
  b=$(basename "$f" .npy)
  cmp "$f" "$work/back/Npy.${b%%.*}.0.0.1700000000000001.output.0.npy" || fail "round trip of $b"
done
cmp "$work/npy/two.1.1700000000000002.npy" "$work/back/Npy.two.0.0.1700000000000002.output.1.npy" ||
  fail "second output of one op"
# the dumps are ordinary dumps: compare them with themselves
"$dumpcmp" compare -m "$work/dump" -g "$work/dump" -out "$work/cmp" > /dev/null
grep -q '^0,Npy,op0,float16,' "$work"/cmp/result_*.csv || fail "compare of converted dumps"

expect() {  # expect CODE MESSAGE args...
  local code=$1 message=$2; shift 2
  local rc=0
  "$dumpcmp" convert "$@" > "$work/log" 2>&1 || rc=$?
  [ "$rc" -eq "$code" ] || fail "exit $rc for $*: $(cat "$work/log")"
  grep -qF -- "$message" "$work/log" || fail "message for $*: $(cat "$work/log")"
}
cp "$work/npy/op0.0.1700000000000001.npy" "$work/badname.npy"
expect 2 "badname.npy: not named op_name.output_index.timestamp.npy" -d "$work/badname.npy" -t dump -out "$work/x"
cp "$work/npy/two.1.1700000000000002.npy" "$work/npy/gap.1.1700000000000003.npy"
expect 2 "output 0 of gap is missing" -d "$work/npy" -t dump -out "$work/x"
expect 1 "The format \"NCWH\" is not supported" -d "$work/dump" -f NCWH -out "$work/x"
expect 1 "The shape(1,x) is invalid" -d "$work/dump" -f ND -s 1,x -out "$work/x"
expect 1 "Each dimension must be greater than 0" -d "$work/dump" -f ND -s 1,0 -out "$work/x"
expect 2 "no such file or directory" -d "$work/nothing" -out "$work/x"
# a truncated dump fails its file, which is listed; the other files are converted
mkdir -p "$work/mixed"
cp "$work/dump/Npy.op1.0.0.1700000000000001" "$work/mixed/"
head -c 20 "$work/dump/Npy.op2.0.0.1700000000000001" > "$work/mixed/Npy.op2.0.0.1700000000000001"
expect 2 "1 failed" -d "$work/mixed" -out "$work/m"
grep -q 'Npy.op2.0.0.1700000000000001$' "$work/m/convert_failed_file_list.txt" || fail "failed list"
[ -f "$work/m/Npy.op1.0.0.1700000000000001.output.0.npy" ] || fail "good file not converted"
echo "convert: ok"
