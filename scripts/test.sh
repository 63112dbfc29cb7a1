#!/usr/bin/env bash
# Builds everything and runs the test suite: README command (2).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/python-env.sh
# The module's Python is the project's .venv (nanobind, numpy) when there is one.
python=()
[ -x .venv/bin/python ] && python=(-DPython_EXECUTABLE="$PWD/.venv/bin/python")
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${python[@]}" >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure -j 2 "$@"
