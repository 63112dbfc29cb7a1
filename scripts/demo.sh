#!/usr/bin/env bash
# Builds dumpcmp and compares a built-in synthetic dump set (no download): README command (1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target dumpcmp dumpcmp_gen
rm -rf build/demo
build/bench/dumpcmp_gen --out build/demo/dumps --ops 40 --max-elements 65536 --inputs 1 --specials
build/cli/dumpcmp compare -m build/demo/dumps/left -g build/demo/dumps/right -out build/demo/result \
  --html build/demo/result/report.html
echo "First rows:"
head -n 4 build/demo/result/result_*.csv
# The main scenario: an offline model (fp16 NC1HWC0 outputs) against framework goldens (-f).
build/bench/dumpcmp_gen --fusion --out build/demo/model --ops 6 --max-elements 200000
# --model-explorer: the model's graph coloured by the results, for Google's Model Explorer.
build/cli/dumpcmp compare -m build/demo/model/left -g build/demo/model/right \
  -f build/demo/model/model.json -out build/demo/model_result \
  --model-explorer build/demo/model_explorer
