#pragma once
// binary16 -> float32 for runs of elements, as vector code for every SIMD target (F16C on AVX2 and
// up, integer rebiasing elsewhere). Each value equals decode_fp16's (math/element_decode.hpp).
#include <cstdint>

namespace dumpcmp::simd {

// out[i] = the float32 value of the binary16 bits at data + 2 * i (unaligned, little-endian).
void decode_fp16(const uint8_t* data, int64_t n, float* out);

}  // namespace dumpcmp::simd
