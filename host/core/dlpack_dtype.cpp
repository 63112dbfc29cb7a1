#include "core/dlpack_dtype.hpp"

namespace dumpcmp {

std::optional<DType> compared_dlpack_dtype(uint8_t code, uint8_t bits, uint16_t lanes) {
  struct Known {
    uint8_t code, bits;  // DLPack: 0 int, 1 uint, 2 float, 4 bfloat, 6 bool
    DType dtype;
  };
  static constexpr Known kKnown[] = {
      {2, 16, DType::kFloat16},  {2, 32, DType::kFloat},  {2, 64, DType::kDouble},
      {4, 16, DType::kBFloat16}, {0, 8, DType::kInt8},    {0, 16, DType::kInt16},
      {0, 32, DType::kInt32},    {0, 64, DType::kInt64},  {1, 8, DType::kUInt8},
      {1, 16, DType::kUInt16},   {1, 32, DType::kUInt32}, {1, 64, DType::kUInt64},
      {6, 8, DType::kBool},
  };
  if (lanes != 1) return std::nullopt;
  for (const Known& k : kKnown) {
    if (k.code == code && k.bits == bits) return k.dtype;
  }
  return std::nullopt;
}

}  // namespace dumpcmp
