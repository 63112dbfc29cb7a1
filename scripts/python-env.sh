#!/usr/bin/env bash
# The project's own Python environment for test tools (.venv, ignored by git): numpy for custom
# plug-ins (-c), onnx and onnxruntime for sub-model export tests, nanobind to build the Python
# module, pandas and pytest for its tests, Model Explorer (ai-edge-model-explorer) to check the
# files --model-explorer writes, h5py to read the --hdf5 files back. Idempotent; tests that need it skip (exit 77) when it is absent.
# Offline machines keep going without it.
set -uo pipefail
cd "$(dirname "$0")/.."
packages=(numpy onnx onnxruntime nanobind pandas pytest ai-edge-model-explorer h5py)
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || { echo "python-env: cannot create $venv (python3-venv?)" >&2; exit 0; }
fi
if ! "$venv/bin/python" -c "import numpy, onnx, onnxruntime, nanobind, pandas, pytest, model_explorer, h5py" 2>/dev/null; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${packages[@]}" ||
    echo "python-env: pip install failed; tests that need ${packages[*]} will be skipped" >&2
fi
exit 0
