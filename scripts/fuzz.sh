#!/usr/bin/env bash
# Fuzzes every parser with libFuzzer under ASan+UBSan (docs/reliability.md).
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (default: 30 s, every target)
#   FUZZ_RUNS=N scripts/fuzz.sh 0 TARGET                  (stop after N executions instead)
#   FUZZ_MAX_LEN=BYTES                                    (longest input tried; default 65536)
# Each target starts from its seeds (fuzz/seed_dirs.txt, fuzz/seeds, fuzz/regressions) and keeps
# what it finds in build-fuzz/corpus/TARGET. A crashing input is written to
# build-fuzz/crashes/TARGET/ and the script fails; keep it as fuzz/regressions/TARGET/NAME once
# fixed, so that ctest runs it from then on. Prints each target's executions and coverage.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
bash scripts/install-deps.sh
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDUMPCMP_FUZZ=ON \
  -DDUMPCMP_CUDA=OFF -DDUMPCMP_MPI=OFF -DDUMPCMP_TESTS=OFF -DDUMPCMP_NATIVE=OFF \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build build-fuzz --target fuzz_all
targets=("$@")
if ((${#targets[@]} == 0)); then
  for src in fuzz/*.cpp; do targets+=("$(basename "$src" .cpp)"); done
fi
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1
failed=()
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t crashes=build-fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  seeds=()
  for d in fuzz/seeds/$t fuzz/regressions/$t $(sed -n "s/^$t  *//p" fuzz/seed_dirs.txt); do
    [ -d "$d" ] && seeds+=("$d")
  done
  limit=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  log=build-fuzz/$t.log
  if build-fuzz/fuzz/fuzz_"$t" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" \
      -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    printf 'fuzz %-20s %12s executions, %s, corpus %s\n' "$t" "$execs" "$cov" \
      "$(find "$corpus" -type f | wc -l)"
  else
    failed+=("$t")
    echo "fuzz $t: FAILED (log: $log, input: $(ls "$crashes" | head -1))" >&2
    grep -m 20 -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$log" >&2 || true
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  exit 1
fi
