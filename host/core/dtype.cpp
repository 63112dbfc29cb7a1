#include "core/dtype.hpp"

#include <array>

namespace dumpcmp {
namespace {

struct DTypeInfo {
  DType type;
  std::string_view wire_name;
  std::string_view numpy_name;  // msaccucmp's DATA_TYPE_TO_STR_DTYPE_MAP; empty = not decodable
  std::size_t storage_size;
};

constexpr std::array<DTypeInfo, 43> kDTypes{{
    {DType::kUndefined, "DT_UNDEFINED", "int8", 1},
    {DType::kFloat, "DT_FLOAT", "float32", 4},
    {DType::kFloat16, "DT_FLOAT16", "float16", 2},
    {DType::kInt8, "DT_INT8", "int8", 1},
    {DType::kUInt8, "DT_UINT8", "uint8", 1},
    {DType::kInt16, "DT_INT16", "int16", 2},
    {DType::kUInt16, "DT_UINT16", "uint16", 2},
    {DType::kInt32, "DT_INT32", "int32", 4},
    {DType::kInt64, "DT_INT64", "int64", 8},
    {DType::kUInt32, "DT_UINT32", "uint32", 4},
    {DType::kUInt64, "DT_UINT64", "uint64", 8},
    {DType::kBool, "DT_BOOL", "bool", 1},
    {DType::kDouble, "DT_DOUBLE", "float64", 8},
    {DType::kString, "DT_STRING", "", 0},
    {DType::kDualSubInt8, "DT_DUAL_SUB_INT8", "", 0},
    {DType::kDualSubUInt8, "DT_DUAL_SUB_UINT8", "", 0},
    {DType::kComplex64, "DT_COMPLEX64", "complex64", 8},
    {DType::kComplex128, "DT_COMPLEX128", "complex128", 16},
    {DType::kQInt8, "DT_QINT8", "", 0},
    {DType::kQInt16, "DT_QINT16", "", 0},
    {DType::kQInt32, "DT_QINT32", "", 0},
    {DType::kQUInt8, "DT_QUINT8", "", 0},
    {DType::kQUInt16, "DT_QUINT16", "", 0},
    {DType::kResource, "DT_RESOURCE", "int64", 8},
    {DType::kStringRef, "DT_STRING_REF", "", 0},
    {DType::kDual, "DT_DUAL", "", 0},
    {DType::kVariant, "DT_VARIANT", "", 0},
    {DType::kBFloat16, "DT_BF16", "bfloat16", 2},
    {DType::kInt4, "DT_INT4", "", 0},
    {DType::kUInt1, "DT_UINT1", "uint1", 1},
    {DType::kInt2, "DT_INT2", "", 0},
    {DType::kUInt2, "DT_UINT2", "", 0},
    {DType::kComplex32, "DT_COMPLEX32", "", 0},
    {DType::kHiFloat8, "DT_HIFLOAT8", "hifloat8", 1},
    {DType::kFloat8E5M2, "DT_FLOAT8_E5M2", "float8_e5m2", 1},
    {DType::kFloat8E4M3FN, "DT_FLOAT8_E4M3FN", "float8_e4m3fn", 1},
    {DType::kFloat8E8M0, "DT_FLOAT8_E8M0", "", 0},
    {DType::kFloat6E3M2, "DT_FLOAT6_E3M2", "", 0},
    {DType::kFloat6E2M3, "DT_FLOAT6_E2M3", "", 0},
    {DType::kFloat4E2M1, "DT_FLOAT4_E2M1", "", 0},
    {DType::kFloat4E1M2, "DT_FLOAT4_E1M2", "", 0},
    {DType::kHiFloat4, "DT_HIFLOAT4", "", 0},
    {DType::kHiFloat4Scale, "DT_HIFLOAT4_SCALE", "", 0},
}};

const DTypeInfo* find(DType t) {
  const auto code = static_cast<std::size_t>(static_cast<int32_t>(t));
  return code < kDTypes.size() ? &kDTypes[code] : nullptr;
}

}  // namespace

std::string_view dtype_wire_name(DType t) {
  const DTypeInfo* info = find(t);
  return info ? info->wire_name : std::string_view{};
}

std::string_view dtype_numpy_name(DType t) {
  const DTypeInfo* info = find(t);
  return info ? info->numpy_name : std::string_view{};
}

std::size_t dtype_storage_size(DType t) {
  const DTypeInfo* info = find(t);
  return info ? info->storage_size : 0;
}

bool dtype_is_decodable(DType t) { return dtype_storage_size(t) != 0; }

bool parse_dtype(std::string_view text, DType& out) {
  for (const DTypeInfo& info : kDTypes) {
    if (text == info.wire_name ||
        (!info.numpy_name.empty() && text == info.numpy_name && info.type != DType::kUndefined &&
         info.type != DType::kResource)) {
      out = info.type;
      return true;
    }
  }
  return false;
}

}  // namespace dumpcmp
