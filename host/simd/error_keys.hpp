#pragma once
// --quantiles' error keys of a chunk (math/error_keys.hpp) as vector code for every SIMD target,
// bit for bit the scalar functions' results.
#include <cstdint>

#include "math/element_source.hpp"

namespace dumpcmp::simd {

// For i < n: abs_key[i] = abs_error_key(x[i], y[i]), rel_key[i] = relative_error_key(x[i], y[i]),
// and abs_bin[i], rel_bin[i] their error_bin with the ascending `edges`.
void error_keys(Float32Bytes x, Float32Bytes y, int64_t n, const uint32_t* edges, int edge_count,
                uint32_t* abs_key, uint32_t* rel_key, uint32_t* abs_bin, uint32_t* rel_bin);

}  // namespace dumpcmp::simd
