#pragma once
// Narrow element types -> float32 for runs of elements, as vector code for every SIMD target:
// binary16 (F16C on AVX2 and up, integer rebiasing elsewhere), bfloat16 (a shift), the integer
// bytes (a conversion) and the float8 types (a gather from a 256-entry table). Each value equals
// the scalar decoder's (math/element_decode.hpp, math/element_source.hpp).
#include <cstdint>

namespace dumpcmp::simd {

// out[i] = the float32 value of the binary16 bits at data + 2 * i (unaligned, little-endian).
void decode_fp16(const uint8_t* data, int64_t n, float* out);

// out[i] = the float32 value of the bfloat16 bits at data + 2 * i (unaligned, little-endian).
void decode_bf16(const uint8_t* data, int64_t n, float* out);

// out[i] = the byte at data + i as int8, as uint8, or as bool (1 unless 0).
void decode_int8(const uint8_t* data, int64_t n, float* out);
void decode_uint8(const uint8_t* data, int64_t n, float* out);
void decode_bool(const uint8_t* data, int64_t n, float* out);

// out[i] = table[data[i]]: the float8 types, whose 256 values are tabled.
void decode_tabled(const uint8_t* data, int64_t n, const float* table, float* out);

}  // namespace dumpcmp::simd
