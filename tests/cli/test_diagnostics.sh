#!/usr/bin/env bash
# Bad inputs are named (issue 16, diagnostics): a truncated dump, a garbage dump, a stray file, a
# subdirectory and a dangling link among good dumps. Each is named once on standard error as
# "dumpcmp: warning: FILE: problem" and in -out/dumpcmp_<ts>.log, the console ends with the count
# by kind, --quiet keeps only the log, and every clean row equals the clean run's.
set -euo pipefail
dumpcmp=$1 gen=$2
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
