#!/usr/bin/env bash
# `pip install .` in a fresh virtual environment gives the `dumpcmp` command and the module: the
# command compares a golden case as the build's CLI does (the same result file), and the module
# imports. Skipped (77) where PyPI cannot be reached for the build tools.
# Usage: test_pip_install.sh ROOT WORK DUMPCMP
set -euo pipefail
root=$1 work=$2 cli=$3
rm -rf "$work"
mkdir -p "$work"
venv=$work/venv
python3 -m venv "$venv" || { echo "no python3 -m venv: skipped"; exit 77; }
# The build tools first, so the build itself runs offline and its failures are failures.
if ! "$venv/bin/pip" install -q --disable-pip-version-check "scikit-build-core>=0.10" \
  "nanobind>=2.0" numpy; then
  echo "PyPI cannot be reached for scikit-build-core, nanobind and numpy: skipped"
  exit 77
fi
# CUDA off: the device backends are tested by the main build; this checks the packaging.
"$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation --no-deps \
  -C build-dir="$work/build" -C cmake.define.DUMPCMP_CUDA=OFF "$root"
[ -x "$venv/bin/dumpcmp" ] || { echo "FAIL: pip install . gave no $venv/bin/dumpcmp"; exit 1; }
"$venv/bin/dumpcmp" --version | grep '^dumpcmp ' > /dev/null || { echo "FAIL: dumpcmp --version"; exit 1; }
case=$root/tests/data/msaccucmp/mixed
"$venv/bin/dumpcmp" compare -m "$case/left" -g "$case/right" -out "$work/pip" --quiet || true
"$cli" compare -m "$case/left" -g "$case/right" -out "$work/build_cli" --quiet || true
cmp "$work/pip"/result_*.csv "$work/build_cli"/result_*.csv ||
  { echo "FAIL: the installed command's result differs from the build's"; exit 1; }
(cd "$work" && "$venv/bin/python" -c "
import dumpcmp, numpy
r = dumpcmp.compare(numpy.arange(10.0), numpy.arange(10.0))
assert r['CosineSimilarity'] == 1.0, r
print('module', dumpcmp.__version__, 'from', dumpcmp.__file__)")
echo "pip install .: the dumpcmp command and the module work"
