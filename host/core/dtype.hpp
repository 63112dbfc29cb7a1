#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dumpcmp {

// Ascend OutputDataType wire codes (docs/formats.md §1.4). Unknown codes stay representable.
enum class DType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kFloat16 = 2,
  kInt8 = 3,
  kUInt8 = 4,
  kInt16 = 5,
  kUInt16 = 6,
  kInt32 = 7,
  kInt64 = 8,
  kUInt32 = 9,
  kUInt64 = 10,
  kBool = 11,
  kDouble = 12,
  kString = 13,
  kDualSubInt8 = 14,
  kDualSubUInt8 = 15,
  kComplex64 = 16,
  kComplex128 = 17,
  kQInt8 = 18,
  kQInt16 = 19,
  kQInt32 = 20,
  kQUInt8 = 21,
  kQUInt16 = 22,
  kResource = 23,
  kStringRef = 24,
  kDual = 25,
  kVariant = 26,
  kBFloat16 = 27,
  kInt4 = 28,
  kUInt1 = 29,
  kInt2 = 30,
  kUInt2 = 31,
  kComplex32 = 32,
  kHiFloat8 = 33,
  kFloat8E5M2 = 34,
  kFloat8E4M3FN = 35,
  kFloat8E8M0 = 36,
  kFloat6E3M2 = 37,
  kFloat6E2M3 = 38,
  kFloat4E2M1 = 39,
  kFloat4E1M2 = 40,
  kHiFloat4 = 41,
  kHiFloat4Scale = 42,
};

// "DT_FLOAT16"; "DT_<code>" spelled by the caller for unknown codes (returns empty).
std::string_view dtype_wire_name(DType t);
// Name of the array msaccucmp compares, as its DataType column prints it ("float16", "float32"...).
// Empty for types it cannot decode.
std::string_view dtype_numpy_name(DType t);
// Bytes per stored element; 0 for types that cannot be decoded (uint1 counts as 1: one byte of 8
// bits).
std::size_t dtype_storage_size(DType t);
// Whether msaccucmp decodes this type (docs/formats.md §2); the others fail their tensor.
bool dtype_is_decodable(DType t);
// Parses "DT_FLOAT16" or "float16"; returns false if unknown.
bool parse_dtype(std::string_view text, DType& out);

}  // namespace dumpcmp
