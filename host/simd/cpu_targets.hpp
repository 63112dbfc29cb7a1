#pragma once
// The Highway targets this CPU (and its OS, for the wider registers) can run, as Highway's target
// bits, from the same feature lists Highway's own detection requires of each target.
#include <cstdint>

namespace dumpcmp::simd {

// A mask of HWY_* target bits; always includes the build's static (baseline) target.
int64_t cpu_supported_targets();

}  // namespace dumpcmp::simd
