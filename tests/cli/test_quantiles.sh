#!/usr/bin/env bash
# compare --quantiles: eight columns after the metrics (P50, P99, P99.9 and a decade histogram of
# |x - y| and of the relative error) that do not depend on the thread count or the backend, whose
# histograms count every element, whose top quantile stays below the maximum, that survive a saved
# plan and the HDF5 file; without the flag the table and the plan are as before.
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Tensors up to 200,000 elements: both the sorted and the radix-selected path.
"$gen" --out "$work/data" --ops 12 --seed 5 --noise 0.01 --max-elements 200000 --specials \
  --dtypes float32 float16 > /dev/null
run() {  # name, arguments...
  local name=$1; shift
  "$dumpcmp" compare -m "$work/data/left" -g "$work/data/right" -out "$work/$name" --quiet "$@" \
    > /dev/null
  ls "$work/$name"/result_*.csv
}
one=$(run one -j 1 --quantiles --device cpu --hdf5 "$work/one.h5")
two=$(run two -j 2 --quantiles --device cpu)
cmp -s "$one" "$two" || fail "-j 1 and -j 2 differ"
if "$dumpcmp" --version | grep thrust-omp > /dev/null; then
  dev=$(run dev --quantiles --device thrust-omp)
  cmp -s "$one" "$dev" || fail "thrust-omp differs from cpu"
fi
plain=$(run plain --device cpu)

"$dumpcmp" compare -m "$work/data/left" -g "$work/data/right" --quantiles --plan-only "$work/q.jsonl" > /dev/null
"$dumpcmp" compare -m "$work/data/left" -g "$work/data/right" --plan-only "$work/p.jsonl" > /dev/null
grep -q '"quantiles":true' "$work/q.jsonl" || fail "the plan does not keep --quantiles"
if grep -q quantiles "$work/p.jsonl"; then fail "a plan without --quantiles names them"; fi
(cd / && "$dumpcmp" compare --plan "$work/q.jsonl" -out "$work/planned" --quiet --device cpu \
  > /dev/null)
cmp -s "$one" "$work"/planned/result_*.csv || fail "the planned run differs"
# Computed as rows run: --quantiles also applies to a plan saved without it.
(cd / && "$dumpcmp" compare --plan "$work/p.jsonl" --quantiles -out "$work/planned2" --quiet \
  --device cpu > /dev/null)
cmp -s "$one" "$work"/planned2/result_*.csv || fail "--plan with --quantiles differs"
set +e
"$dumpcmp" compare -m "$work/data/left" -g "$work/data/right" -op layer0 --quantiles \
  -out "$work/detail" > /dev/null 2> "$work/detail.err"
code=$?
set -e
[ "$code" = 1 ] && grep -q -- "--quantiles excludes --op_name" "$work/detail.err" ||
  fail "-op with --quantiles: exit $code, $(cat "$work/detail.err")"

python3 - "$one" "$plain" <<'PY' || fail "quantile columns"
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
plain = list(csv.reader(open(sys.argv[2], newline="")))
header, body = rows[0], rows[1:]
names = [m + c for m in ("AbsError", "RelError") for c in ("P50", "P99", "P99.9", "Histogram")]
assert header[-9:-1] == names, header
# Without the flag: the same table less the eight columns.
assert plain[0] == header[:-9] + header[-1:]
assert [r[:-9] + r[-1:] for r in body] == plain[1:]
col = {n: header.index(n) for n in names}
checked = 0
for r in body:
    if r[col["AbsErrorHistogram"]] == "NaN":
        continue
    shape = r[header.index("Shape")].strip("[]").replace(" ", "")
    count = math.prod(int(d) for d in shape.split(",")) if shape else 1
    for m, maximum in (("AbsError", "MaxAbsoluteError"), ("RelError", "MaxRelativeError")):
        bins = [int(v) for v in r[col[m + "Histogram"]].split(";")]
        assert len(bins) == 11 and sum(bins) == count, (r[2], m, bins, count)
        q = [float(r[col[m + p]]) for p in ("P50", "P99", "P99.9")]
        assert q == sorted(q), q
        top = float(r[header.index(maximum)])  # nan when an error is: quantiles skip those
        assert math.isnan(top) or q[2] <= top + 5e-7, (r[2], m)
    checked += 1
assert checked >= 12, checked
print(checked, "rows checked")
PY

# The HDF5 file holds the quantiles as doubles and the bins as integers.
if command -v h5dump > /dev/null; then
  h5dump -H "$work/one.h5" | grep -q '"abs_error_p99_9"' || fail "hdf5 quantile field"
  h5dump -H "$work/one.h5" | grep -q '"rel_error_histogram_10"' || fail "hdf5 histogram field"
fi
echo "quantiles: ok"
