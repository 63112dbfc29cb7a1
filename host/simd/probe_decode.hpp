#pragma once
// A data file's elements as float64, as numpy's astype(float) gives them (msprobe's tensor mode,
// docs/msprobe-compare.md §5.3): the CPU's bulk form of math/probe_pair.hpp's probe_element.
#include <cstdint>

#include "core/dtype.hpp"

namespace dumpcmp::simd {

// count elements of dtype t from p (little-endian, any alignment) into out: floats exactly,
// integers and bools converted, complex numbers as their real parts; another dtype gives zeros.
void decode_to_double(DType t, const uint8_t* p, int64_t count, double* out);

}  // namespace dumpcmp::simd
