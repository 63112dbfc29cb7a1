#pragma once
// The DType of a DLPack array (numpy, torch, CuPy, JAX) the compare takes: float 16/32/64,
// bfloat16, int and uint 8-64, bool; one lane. Codes as DLPack numbers them.
#include <cstdint>
#include <optional>

#include "core/dtype.hpp"

namespace dumpcmp {

std::optional<DType> compared_dlpack_dtype(uint8_t code, uint8_t bits, uint16_t lanes = 1);

}  // namespace dumpcmp
