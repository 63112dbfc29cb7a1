#!/usr/bin/env bash
# A dump truncated while dumpcmp has it mapped (issue 16, docs/reliability.md): gdb stops the
# process once the dump is open, truncates it to 4 KiB and lets it go on. The read past the new
# end raises SIGBUS, which core/sigbus_guard turns into zeros and a damaged mapping:
#  - compare: that row fails naming the file, the run goes on (exit 0), the log names it;
#  - convert and detail (-op): exit 2 naming the file, and nothing they wrote from it stays;
#  - overflow: the file's scan line says it cannot be read, naming why;
#  - extract: exit 2 naming the file, and no input data exported from it.
# Skipped (77) without gdb.
set -euo pipefail
dumpcmp=$1 gen=$2
command -v gdb > /dev/null || { echo "SKIP: gdb is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
export OMP_WAIT_POLICY=PASSIVE  # no re-exec (cli/main.cpp), so gdb follows one program
# LeakSanitizer cannot run under ptrace; the other tests check leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# Runs dumpcmp ARGS... under gdb, truncating FILE when BREAKPOINT is first reached.
shrink_at() {  # breakpoint, file, dumpcmp arguments...
  local at=$1 file=$2
  shift 2
  gdb -q -batch -ex 'set breakpoint pending on' -ex 'handle SIGBUS nostop noprint pass' \
    -ex "break $at" -ex run -ex 'delete' -ex "call (int)truncate(\"$file\", 4096)" -ex continue \
    -ex 'info program' --args "$dumpcmp" "$@" > gdb.out 2>&1 || true
  grep -qE "(^| hit )Breakpoint 1(\.[0-9]+)?, " gdb.out || fail "$at was not reached: $(tail -5 gdb.out)"
}
# 4 MiB float32 tensors: mapped, not read into memory (MappedFile::kReadThreshold is 1 MiB).
"$gen" --out d --ops 3 --min-elements 1048576 --max-elements 1048576 --dtypes float32 --inputs 0 \
  --noise 0.01 > /dev/null
victim=$(ls d/left/* | sed -n 2p)
cp -r d clean
"$dumpcmp" compare -m clean/left -g clean/right -out cmp_clean --device cpu --quiet

# compare: truncated as the reduction starts.
cp -r clean c
shrink_at 'dumpcmp::CpuBackend::reduce' "c/${victim#d/}" compare -m c/left -g c/right -out cmp \
  --device cpu --quiet
grep -q "exited normally" gdb.out || fail "compare did not end normally: $(tail -5 gdb.out)"
op=$(basename "$victim" | cut -d. -f2)
grep ",$op," cmp/result_*.csv | grep -q "shrank while it was read" || fail "the row did not fail"
diff <(grep -v ",$op," cmp_clean/result_*.csv) <(grep -v ",$op," cmp/result_*.csv) > /dev/null ||
  fail "the other rows differ"
grep -q "c/${victim#d/}: the file shrank" cmp/dumpcmp_*.log || fail "compare: not in the log"
echo "ok compare"

# convert: truncated when the first array is exported.
cp -r clean v && mkdir conv
shrink_at 'dumpcmp::export_array' "v/${victim#d/}" convert -d "v/${victim#d/}" -out conv
grep -q "exited with code 02" gdb.out || fail "convert: $(tail -5 gdb.out)"
grep -q "v/${victim#d/}: the file shrank while it was read" gdb.out || fail "convert: not named"
[ -z "$(ls conv)" ] || fail "convert left files: $(ls conv)"
echo "ok convert"

# detail: truncated when the detail starts reading the pair.
cp -r clean t
shrink_at 'dumpcmp::write_single_op_detail' "t/${victim#d/}" compare -m t/left -g t/right \
  -op "$op" -out det --device cpu
grep -q "exited with code 02" gdb.out || fail "detail: $(tail -5 gdb.out)"
grep -q "t/${victim#d/}: the file shrank while it was read" gdb.out || fail "detail: not named"
[ -z "$(ls det 2> /dev/null)" ] || fail "detail left files: $(ls det)"
echo "ok detail"

# overflow: truncated when its specials are first counted (the only dump there, so it is mapped).
mkdir s && cp "clean/${victim#d/}" s/
shrink_at 'dumpcmp::count_specials' "s/$(basename "$victim")" overflow -d s -out ov
grep -q "exited normally" gdb.out || fail "overflow: $(tail -5 gdb.out)"
grep -q "$(basename "$victim"): cannot be read: .*the file shrank while it was read" ov/overflow_summary_*.txt ||
  fail "overflow: $(cat ov/overflow_summary_*.txt)"
echo "ok overflow"

# extract: truncated when the start op's input is exported (a dump with a 4 MiB input).
"$gen" --out e --ops 2 --min-elements 1048576 --max-elements 1048576 --dtypes float32 --inputs 1 \
  > /dev/null
printf '{"graph":[{"name":"g","op":[%s,%s]}]}' \
  '{"name":"layer0","type":"Relu","id":1,"input":[]}' \
  '{"name":"layer1","type":"Relu","id":2,"input":["layer0:0"]}' > e/model.json
start=$(ls e/left/*.layer0.*)
shrink_at 'dumpcmp::export_array' "$start" extract --graph e/model.json --dump e/left \
  --start layer0 --end layer1 -out ex
grep -q "exited with code 02" gdb.out || fail "extract: $(tail -5 gdb.out)"
grep -q "$start: the file shrank while it was read" gdb.out || fail "extract: not named"
[ -z "$(find ex -name '*.input.*')" ] || fail "extract exported: $(find ex -name '*.input.*')"
echo "ok extract"
