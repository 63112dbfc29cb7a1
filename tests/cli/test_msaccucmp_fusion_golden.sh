#!/usr/bin/env bash
# Every row dumpcmp writes through a fusion rule (-f, -q, -r, -s, -overflow_detection, -alg,
# -advisor, -map) agrees with the real msaccucmp's own result files in tests/data/msaccucmp_fusion.
set -euo pipefail
dumpcmp=$1 root=$3
data="$root/tests/data/msaccucmp_fusion"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
while IFS='|' read -r name case args; do
  name=$(echo "$name" | xargs); case=$(echo "$case" | xargs)
  [[ -z "$name" || "$name" == \#* ]] && continue
  out="$work/$name"
  mkdir -p "$out"
  # shellcheck disable=SC2086  # the argument list is split on purpose
  (cd "$data/$case" && "$dumpcmp" compare $args -out "$out" --device cpu >"$out.log" 2>&1) || true
  case_root=$(cd "$data/$case" && pwd -P)
  ours=$(ls "$out"/*_*.csv) theirs="$data/expected/$name.csv"
  # Rows of layouts msaccucmp cannot convert (its NaN rows) that dumpcmp restores: each must be
  # compared with a cosine near 1 and is left out of the row-by-row agreement.
  extensions="$data/$case/extension_rows.txt"
  if [[ -f "$extensions" ]]; then
    python3 - "$ours" "$theirs" "$extensions" "$out.ours.csv" "$out.theirs.csv" <<'PY' || failed=1
import csv, sys
ours, theirs, listed, ours_out, theirs_out = sys.argv[1:]
rows = {l.strip() for l in open(listed) if l.strip() and not l.startswith("#")}
def split(path, out, check):
    table = list(csv.reader(open(path, newline="")))
    col, cos = table[0].index("TensorIndex"), table[0].index("CosineSimilarity")
    kept = [table[0]] + [r for r in table[1:] if r[col] not in rows]
    if check:
        for r in table[1:]:
            if r[col] in rows and not float(r[cos]) > 0.9999:
                print(f"FAIL: {r[col]}: an extension row is not restored (cosine {r[cos]})")
                sys.exit(1)
        if len(table) - len(kept) != len(rows):
            print(f"FAIL: {len(table) - len(kept)} of the {len(rows)} extension rows in {path}")
            sys.exit(1)
    csv.writer(open(out, "w", newline=""), lineterminator="\n").writerows(kept)
split(ours, ours_out, True)
split(theirs, theirs_out, False)
PY
    ours="$out.ours.csv" theirs="$out.theirs.csv"
  fi
  # -map writes mapping_<ts>.csv instead of result_<ts>.csv; "@CASE@" stands for the case dir.
  if ! python3 "$root/bench/diff_results.py" "$ours" "$theirs" \
       "@CASE@" "$case_root" >"$out.diff"; then
    echo "FAIL: $name"; cat "$out.diff"; cat "$out.log"; failed=1
  else
    echo "$name: $(tail -n 1 "$out.diff")"
  fi
  expected_summary="$data/expected/${name}_summary.txt"
  if [[ -f "$expected_summary" ]] && ! diff "$out/advisor_summary.txt" "$expected_summary"; then
    echo "FAIL: $name advisor_summary.txt differs"; failed=1
  fi
done < "$data/runs.txt"

# "--range=2,12,3" in one token selects as "-r 2,12,3" but msaccucmp adds no OpSequence column (it
# looks for -r, -s, --range and --select among its arguments): basic_range's rows without it.
out="$work/range_in_one_token"
mkdir -p "$out"
(cd "$data/basic" && "$dumpcmp" compare -m left -g right -f model.json --range=2,12,3 -out "$out" \
   --device cpu >"$out.log" 2>&1) || true
python3 -c 'import csv,sys; w=csv.writer(open(sys.argv[2],"w",newline=""),lineterminator="\n")
for row in csv.reader(open(sys.argv[1],newline="")): w.writerow(row[:1]+row[2:])' \
  "$data/expected/basic_range.csv" "$work/basic_range_without_opsequence.csv"
if ! python3 "$root/bench/diff_results.py" "$out"/result_*.csv \
     "$work/basic_range_without_opsequence.csv" >"$out.diff"; then
  echo "FAIL: --range=2,12,3"; cat "$out.diff"; failed=1
else
  echo "range_in_one_token: $(tail -n 1 "$out.diff")"
fi

# msprobe compare -m offline_data: msaccucmp's compare under msprobe's names (-tp -gp -fr -qfr
# -cfr -o), the same rows; -o with no value is ./output, as msprobe passes it.
while IFS='|' read -r name case args; do
  name=$(echo "$name" | xargs); case=$(echo "$case" | xargs)
  out="$work/offline_data_$name"
  mkdir -p "$out"
  # shellcheck disable=SC2086
  (cd "$data/$case" && "$dumpcmp" compare -m offline_data $args -o "$out" --device cpu \
     >"$out.log" 2>&1) || true
  if ! python3 "$root/bench/diff_results.py" "$out"/result_*.csv "$data/expected/$name.csv" \
       "@CASE@" "$(cd "$data/$case" && pwd -P)" >"$out.diff"; then
    echo "FAIL: -m offline_data $name"; cat "$out.diff" "$out.log"; failed=1
  else
    echo "offline_data_$name: $(tail -n 1 "$out.diff")"
  fi
done <<'RUNS'
basic_all | basic | -tp left -gp right -fr model.json
quant_fq  | quant | -tp om_left --golden_path right -fr model.json -qfr quant.json
cf_all    | cf    | --target_path left -gp right -fr open.json -cfr close.json
RUNS
(cd "$work" && cp -r "$data/basic" default_output && cd default_output &&
   "$dumpcmp" compare --mode=offline_data -tp left -gp right -fr model.json -o >/dev/null 2>&1 &&
   python3 "$root/bench/diff_results.py" output/result_*.csv "$data/expected/basic_all.csv" \
     "@CASE@" "$(pwd -P)" >/dev/null) || { echo "FAIL: -m offline_data -o with no value"; failed=1; }
for refused in "-m torchair -tp left -gp right" "-m offline_data -tp left -gp right -fm"; do
  # shellcheck disable=SC2086
  if (cd "$data/basic" && "$dumpcmp" compare $refused -o "$work/refused" >"$work/refused.log" 2>&1); then
    echo "FAIL: compare $refused ran"; failed=1
  elif ! grep -q "torchair' is not dumpcmp's\|offline_data takes no --fuzzy_match" "$work/refused.log"; then
    echo "FAIL: compare $refused: $(cat "$work/refused.log")"; failed=1
  fi
done
exit $failed
