#pragma once
// --quantiles' keys and histogram bins of float64 errors (quantiles/float64_quantiles.cpp) as
// vector code for every SIMD target, bit for bit the scalar rule.
#include <cstdint>

namespace dumpcmp::simd {

// For i < n, of the non-negative (or NaN) errors e: key[i] = e[i]'s bits, 0 for either zero,
// all ones for NaN; bin[i] = 0 for zero, then one more for each of the ascending float64 `edges`
// at or below e[i], one for NaN after the last.
void float64_keys(const double* e, int64_t n, const double* edges, int edge_count, uint64_t* key,
                  uint64_t* bin);

}  // namespace dumpcmp::simd
