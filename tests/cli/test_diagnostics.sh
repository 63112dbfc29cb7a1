#!/usr/bin/env bash
# Bad inputs are named (issue 16, diagnostics): a truncated dump, a garbage dump, a stray file, a
# subdirectory and a dangling link among good dumps. Each is named once on standard error as
# "dumpcmp: warning: FILE: problem" and in -out/dumpcmp_<ts>.log, the console ends with the count
# by kind, --quiet keeps only the log, and every clean row equals the clean run's.
set -euo pipefail
dumpcmp=$1 gen=$2
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
if "$dumpcmp" --version | grep -q "^scale-out: MPI" && command -v mpirun > /dev/null; then
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
