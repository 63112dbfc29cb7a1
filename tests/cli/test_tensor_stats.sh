#!/usr/bin/env bash
# End to end: compare_stats of a statistics dump against a tensor dump (docs/statistics.md §9).
# dumpcmp_gen writes tensor dumps (float16, float32, bfloat16, int32; NaN/inf/zero outputs in
# ops 1 and 6), dumpcmp convert turns them into .npy, and numpy (here, not dumpcmp) writes from
# those the statistics CANN's stats dump (per-op .csv, its AICPU writer's NaN rule) and
# MindSpore's statistic.csv (NaN propagates) would hold. compare_stats of each against the tensor dump, on either side, must
# compare every row with zero differences; perturbed tensors must show up, the earliest as the
# first divergent op. Exits 77 when no python3 with numpy is found.
set -euo pipefail
dumpcmp=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

py=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import numpy' 2> /dev/null; then py=$candidate; break; fi
done
[ -n "$py" ] || { echo "test_tensor_stats: no python3 with numpy, skipped"; exit 77; }

"$gen" --out "$work/gen" --ops 11 --min-elements 1 --max-elements 5000 \
  --dtypes float16 float32 bfloat16 int32 float16 --inputs 2 --seed 11 --specials > /dev/null
dumps="$work/gen/left"
"$dumpcmp" convert -d "$dumps" -out "$work/npy" > /dev/null 2>&1

# numpy's statistics of every tensor, written as CANN's per-op .csv files (cann/) and as one
# MindSpore statistic.csv (ms/). Header fields (dtype, format, shape, size) come from dumpcmp
# inspect; every statistic is computed here from the .npy values.
"$py" - "$dumpcmp" "$dumps" "$work/npy" "$work" <<'PY'
import os, subprocess, sys
import numpy as np

dumpcmp, dumps, npy, work = sys.argv[1:]
os.makedirs(f'{work}/cann')
os.makedirs(f'{work}/ms')
NUMPY_NAME = {'DT_FLOAT': 'float32', 'DT_FLOAT16': 'float16', 'DT_BF16': 'bfloat16',
              'DT_INT32': 'int32'}

def text(v):
    # std::ostream's default: 6 significant digits, nan, inf, -inf
    if np.isnan(v):
        return 'nan'
    if np.isinf(v):
        return 'inf' if v > 0 else '-inf'
    return '%.6g' % v

ms_rows = []
for name in sorted(os.listdir(dumps)):
    op_type, op_name, task, stream, ts = name.split('.')
    out = subprocess.run([dumpcmp, 'inspect', f'{dumps}/{name}'], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    cann_rows = []
    for line in out[3:]:
        f = line.split()
        if not f:
            continue
        group, index, dtype, fmt, shape, size = f[0], f[1], f[2], f[3], f[4], f[6]
        a = np.load(f'{npy}/{name}.{group}.{index}.npy').astype(np.float64).ravel()
        dims = [d for d in shape.strip('[]').split(',') if d]
        nan, pinf, ninf = int(np.isnan(a).sum()), int(np.isposinf(a).sum()), int(np.isneginf(a).sum())
        finite = a[np.isfinite(a)]
        integral = dtype.startswith('DT_INT')
        # CANN's AICPU writer: max/min from element 0 on, NaN skipped by comparison (NaN only when
        # element 0 is); mean +-inf with one kind of infinity, NaN with a NaN or both, integer
        # max/min printed in full.
        if np.isnan(a[0]):
            mx = mn = float('nan')
        else:
            mx, mn = np.nanmax(a), np.nanmin(a)
        if pinf and not ninf:
            mean = float('inf')
        elif ninf and not pinf:
            mean = float('-inf')
        elif nan or (pinf and ninf):
            mean = float('nan')
        else:
            mean = finite.mean()
        ext = (lambda v: '%d' % v) if integral else text
        cann_rows.append(f'{group.capitalize()},{index},{size},{dtype},{fmt},'
                         f'{"x".join(dims) if dims else "-"},{ext(mx)},{ext(mn)},{text(mean)},'
                         f'{a.size},{nan},{ninf},{pinf}')
        # MindSpore (numpy's own NaN propagation); every value printed as a double.
        with np.errstate(invalid='ignore', over='ignore'):
            ms = [a.max(), a.min(), a.mean(), np.linalg.norm(a)]
        ms_rows.append(f'{op_type},{op_name},{task},{stream},{ts},{group},{index},{size},'
                       f'{NUMPY_NAME[dtype]},"({",".join(dims)})",' +
                       ','.join(text(v) for v in ms) + ',')
    with open(f'{work}/cann/{name}.csv', 'w') as fh:
        fh.write('Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,'
                 'Avg Value,Count,Nan Count,Negative Inf Count,Positive Inf Count\n')
        fh.write('\n'.join(cann_rows) + '\n')
with open(f'{work}/ms/statistic.csv', 'w') as fh:
    fh.write('Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,'
             'Max Value,Min Value,Avg Value,L2Norm Value\n')
    fh.write('\n'.join(ms_rows) + '\n')
PY

rows=$(grep -vc '^Input/Output' <(cat "$work"/cann/*.csv))
[ "$rows" -ge 25 ] || fail "only $rows tensors generated"
specials=$(grep -vc -e '^Input/Output' -e ',0,0,0$' <(cat "$work"/cann/*.csv) || true)
[ "$specials" -ge 2 ] || fail "only $specials tensors with NaN or inf"

# same RESULT STATS: every row compared, the NPU and bench STATS (CANN's files have no l2norm)
# equal cell for cell, every difference 0 (or empty where both are NaN or the same infinity).
same() {
  "$py" - "$1" "$2" <<'PY' || fail "differences in $1"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
bad = []
for r in rows:
    for s in sys.argv[2].split(','):
        if r[f'NPU {s}'] != r[f'Bench {s}']:
            bad.append(f"{r['NPU Name']} {s}: {r[f'NPU {s}']} vs {r[f'Bench {s}']}")
    for d in ('Max diff', 'Min diff', 'Mean diff', 'L2norm diff'):
        if r[d] not in ('', '0.0', '-0.0'):
            bad.append(f"{r['NPU Name']} {d} = {r[d]}")
    if r['Accuracy Reached or Not'] != 'Yes' or r['Err_message']:
        bad.append(f"{r['NPU Name']}: {r['Accuracy Reached or Not']} {r['Err_message']!r}")
if bad:
    print('\n'.join(bad[:10]))
sys.exit(1 if bad or not rows else 0)
PY
}

summary=": $rows rows, $rows compared, 0 outside tolerance (0 NPU only, 0 bench only), first divergent op: none;"
for kind in cann ms; do
  for side in npu bench; do
    out="$work/res_${kind}_$side"
    if [ $side = npu ]; then
      "$dumpcmp" compare_stats -m "$dumps" -g "$work/$kind" -out "$out" > "$out.log" 2> "$out.err"
    else
      "$dumpcmp" compare_stats -m "$work/$kind" -g "$dumps" -out "$out" > "$out.log" 2> "$out.err"
    fi
    grep -q "$summary" "$out.log" || fail "$kind $side summary: $(cat "$out.log" "$out.err")"
    grep -q "statistics computed from $rows tensors of $(ls "$dumps" | wc -l) dumps" "$out.log" ||
      fail "$kind $side: $(cat "$out.log")"
    stats=max,min,mean
    [ $kind = ms ] && stats=max,min,mean,l2norm
    same "$(ls "$out"/compare_stats_result_*.csv)" $stats
  done
done
grep -q "as CANN writes them, NaN rule cann-aicpu" "$work/res_cann_npu.log" || fail "CANN flavor"
grep -q "as MindSpore writes them, NaN rule propagate" "$work/res_ms_npu.log" || fail "MindSpore flavor"

# A NaN rule other than the writer's shows in the rows whose tensors hold NaN or inf.
"$dumpcmp" compare_stats -m "$work/cann" -g "$dumps" -out "$work/rule" --nan-rule propagate \
  > "$work/rule.log" 2> /dev/null
grep -q ": $rows rows, $rows compared," "$work/rule.log" || fail "rule: $(cat "$work/rule.log")"
if "$py" - "$(ls "$work"/rule/*.csv)" <<'PY'; then fail "--nan-rule propagate changed nothing"; fi
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
sys.exit(0 if all(r['NPU mean'] == r['Bench mean'] for r in rows) else 1)
PY

# Perturbed tensors: the last element of two ops' last output becomes 1000; the earlier op (by
# dump timestamp) is the first divergent one.
cp -r "$dumps" "$work/pert"
perturb() {  # perturb OP: the file of OP in pert/, its last output's last element
  local file
  file=$(ls "$work"/pert/*."$1".*)
  "$py" - "$file" "$("$dumpcmp" inspect "$file" | awk '$1 == "output" {l = $0} END {print l}')" <<'PY'
import struct, sys
path, line = sys.argv[1], sys.argv[2].split()
dtype, size, offset = line[2], int(line[6]), int(line[7])
pack = {'DT_FLOAT': struct.pack('<f', 1000.0), 'DT_FLOAT16': struct.pack('<e', 1000.0),
        'DT_BF16': struct.pack('<f', 1000.0)[2:], 'DT_INT32': struct.pack('<i', 1000)}[dtype]
with open(path, 'r+b') as fh:
    fh.seek(offset + size - len(pack))
    fh.write(pack)
PY
}
perturb layer7
perturb layer2
set +e
"$dumpcmp" compare_stats -m "$work/pert" -g "$work/cann" -out "$work/p" --fail-on-threshold \
  > "$work/p.log" 2> "$work/p.err"
rc=$?
set -e
[ $rc -eq 5 ] || fail "perturbed dump exited $rc: $(cat "$work/p.err")"
grep -q ": $rows rows, $rows compared, 2 outside tolerance (0 NPU only, 0 bench only), first divergent op: layer2.1.Output.0;" \
  "$work/p.log" || fail "perturbed summary: $(cat "$work/p.log")"
grep -q '^layer7\.1\.Output\.0,.*,No,' "$work/p"/compare_stats_result_*.csv || fail "layer7 row"

# Both sides tensor dumps: a usage error pointing at dumpcmp compare.
set +e
"$dumpcmp" compare_stats -m "$dumps" -g "$work/pert" -out "$work/e" 2> "$work/e.err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "two tensor dumps exited $rc"
grep -q "both hold tensor dumps" "$work/e.err" || fail "message: $(cat "$work/e.err")"
# In a whole run: a tree of tensor dumps (the perturbed ones at two steps) against the flat CANN
# statistics; each leaf as compare_stats writes it.
for step in 0 5; do
  mkdir -p "$work/tree/20240101120000/0/net_1/1/$step" && cp "$work/pert"/* "$work/tree/20240101120000/0/net_1/1/$step/"
done
"$dumpcmp" compare --tree -m "$work/tree" -g "$work/cann" -out "$work/t" --quiet 2> /dev/null || true
[ "$(tail -n +2 "$work/t/summary.csv" | grep -c ',compared,')" = 2 ] || fail "tree: $(cat "$work/t/summary.csv")"
grep -q ',layer2.1.Output.0,0_net_1_5_stats_result_' "$work/t/summary.csv" || fail "tree first op: $(cat "$work/t/summary.csv")"
"$dumpcmp" compare_stats -m "$work/pert" -g "$work/cann" -out "$work/t1" > /dev/null 2>&1
"$py" - "$(ls "$work/t"/0_net_1_0_stats_result_*.csv)" "$(ls "$work/t1"/compare_stats_result_*.csv)" <<'PY' ||
import csv, sys
def rows(path):  # every cell but the two file columns, which name each run's own paths
    return [[c for k, c in r.items() if not k.endswith('CSV File')]
            for r in csv.DictReader(open(path, newline=''))]
sys.exit(0 if rows(sys.argv[1]) == rows(sys.argv[2]) else 1)
PY
  fail "tree leaf differs from compare_stats"
echo "test_tensor_stats: $rows tensors, CANN and MindSpore statistics, both sides, in a tree: OK"
