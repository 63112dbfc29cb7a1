#pragma once
// Which SIMD target the vector kernels (chunk_lift, narrow_decode) run: the best one this CPU
// supports among those compiled in, unless limited (DUMPCMP_SIMD, for benchmarks and tests).
// Targets are Highway's (AVX3 is AVX-512); dumpcmp detects them itself (cpu_targets.cpp) rather
// than through libhwy.so, whose start-up code calibrates a timer for ~10 ms in every process.
#include <cstdint>
#include <string>
#include <vector>

namespace dumpcmp::simd {

// The target the kernels dispatch to now, in Highway's spelling: "AVX3", "AVX2", "SSE4", ...
std::string chosen_target();

// Every target compiled into this binary, best first, space-separated.
std::string compiled_targets();

// The compiled targets this CPU can run, whatever the limit, best first.
std::vector<std::string> runnable_targets();

// Runs the kernels on `name` (case-insensitive; "avx512" is AVX3) or, when this CPU lacks it, on
// the best target below it. Throws Error naming the compiled targets when `name` is not one. Not
// thread-safe: for start-up and tests.
void limit_target(const std::string& name);

// Highway's bit for the chosen target: what the kernel tables (dispatch.hpp) look up.
int64_t chosen_target_bit();

}  // namespace dumpcmp::simd
