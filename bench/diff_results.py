#!/usr/bin/env python3
"""Compares two msaccucmp-style result CSVs row by row (e.g. dumpcmp's against msaccucmp's own).

Cells must be equal, except numbers, which may differ by float32 rounding: 1e-6 absolute or 1e-5
relative (docs/decisions.md decision 1), and the 3-decimal StandardDeviation cells by 0.001.
Usage: diff_results.py OURS.csv THEIRS.csv [THEIRS_ROOT OURS_ROOT]  -> exit 0 when every row agrees.
THEIRS_ROOT/OURS_ROOT: a path prefix in THEIRS.csv's cells (file names in messages) that stands for
OURS_ROOT, for results produced in another directory.
"""
import csv
import math
import re
import sys

SD = re.compile(r"^\((.*);(.*)\),\((.*);(.*)\)$")
# Notes dumpcmp adds to CompareFailReason where msaccucmp's number is misleading (docs/decisions.md
# decision 2; docs/compatibility.md): accepted when the rest of the reason agrees.
DUMPCMP_NOTES = re.compile(
    r",?Only the first \d+ of \d+ elements of the NPU tensor were compared: its shape \([^)]*\) "
    r"differs from the ground truth's \([^)]*\)\.")


def without_notes(reason):
    return DUMPCMP_NOTES.sub("", reason).lstrip(",")


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def close(a, b, abs_tol=1.000001e-6, rel_tol=1e-5):  # one unit of the 6th decimal
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return str(a) == str(b)
    return abs(a - b) <= abs_tol or abs(a - b) <= rel_tol * abs(b)


def cells_agree(ours, theirs):
    if ours == theirs:
        return True
    if ours in ("NaN", "nan", "1.0") or theirs in ("NaN", "nan", "1.0"):
        return False  # these strings carry meaning of their own
    a, b = number(ours), number(theirs)
    if a is not None and b is not None:
        return close(a, b)
    ma, mb = SD.match(ours), SD.match(theirs)
    if ma and mb:
        return all(close(float(x), float(y), 1.001e-3, 1e-6) for x, y in zip(ma.groups(), mb.groups()))
    return False


def main(ours_path, theirs_path, theirs_root=None, ours_root=None):
    with open(ours_path, newline="") as f:
        ours = list(csv.reader(f))
    with open(theirs_path, newline="") as f:
        theirs = list(csv.reader(f))
    if theirs_root:
        theirs = [[cell.replace(theirs_root, ours_root) for cell in row] for row in theirs]
    problems = []
    if ours[:1] != theirs[:1]:
        problems.append(f"header differs:\n  ours   {ours[:1]}\n  theirs {theirs[:1]}")
    if len(ours) != len(theirs):
        problems.append(f"row count differs: ours {len(ours) - 1}, theirs {len(theirs) - 1}")
    header = theirs[0] if theirs else []
    for i, (a, b) in enumerate(zip(ours[1:], theirs[1:]), start=1):
        if len(a) != len(b):
            problems.append(f"row {i}: {len(a)} cells vs {len(b)}")
            continue
        for col, (x, y) in enumerate(zip(a, b)):
            if col < len(header) and header[col] == "CompareFailReason":
                x = without_notes(x)
            if not cells_agree(x, y):
                name = header[col] if col < len(header) else col
                problems.append(f"row {i} ({a[2] if len(a) > 2 else ''}) {name}: ours {x!r} theirs {y!r}")
    for p in problems[:50]:
        print(p)
    print(f"{len(ours) - 1} rows compared, {len(problems)} differences")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
