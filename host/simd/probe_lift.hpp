#pragma once
// msprobe's order-free real-data metrics (math/probe_accumulator.hpp) as vector code, compiled for
// every SIMD target and picked at run time like the chunk lifts; the same result as the scalar
// template, which the tests hold it to.
#include <cstdint>

#include "math/probe_accumulator.hpp"

namespace dumpcmp::simd {

// n float32, binary16 or bfloat16 values (little-endian, any alignment) as float64: exact.
void float32_to_double(const uint8_t* bytes, int64_t n, double* out);
void float16_to_double(const uint8_t* bytes, int64_t n, double* out);
void bfloat16_to_double(const uint8_t* bytes, int64_t n, double* out);

// lift_probe_chunk<float> (float32 true: both sides 16- or 32-bit floats) or <double>.
ProbeAccumulator lift_probe_chunk(double* x, double* y, double* diff, int64_t n, bool float32);

}  // namespace dumpcmp::simd
