#!/usr/bin/env bash
# The Python module's tests (pytest) on the module this build made.
# Usage: run_pytest.sh DUMPCMP DUMPCMP_GEN ROOT MODULE_DIR (empty when the module was not built)
# [pytest arguments].
set -euo pipefail
dumpcmp=$1 gen=$2 root=$3 module_dir=${4:-}
shift 4
python="$root/.venv/bin/python"
if [ -z "$module_dir" ]; then
  echo "the Python module was not built (nanobind and Python's headers: scripts/python-env.sh): skipped"
  exit 77
fi
if ! "$python" -c "import numpy, pandas, pytest" 2>/dev/null; then
  echo "no $python with numpy, pandas and pytest (scripts/python-env.sh): skipped"; exit 77
fi
cd "$root/tests/python"
# Screenshots and other artefacts stay beside the module, in the build tree.
PYTHONPATH="$module_dir" DUMPCMP_CLI="$dumpcmp" DUMPCMP_GEN="$gen" DUMPCMP_ROOT="$root" \
  DUMPCMP_ARTIFACTS="$module_dir/../test-artifacts" \
  exec "$python" -m pytest -q -p no:cacheprovider "$@" .
