#pragma once
// The CPU's bulk decode: a chunk of a tensor into float32, the dtype switch hoisted out of the
// loop, binary16, bfloat16 and one-byte types through the vector kernels (narrow_decode), layouts
// gathered through their map.
#include <cstdint>

#include "math/element_source.hpp"

namespace dumpcmp {

// Elements [begin, begin + n) of src, as load_element gives them, into out.
void decode_elements(const ElementSource& src, int64_t begin, int64_t n, float* out);

// The same elements without a copy where the payload already is them (float32 in its own order,
// at any alignment); else decoded into scratch, which holds n floats.
Float32Bytes elements_of(const ElementSource& src, int64_t begin, int64_t n, float* scratch);

}  // namespace dumpcmp
