#include "tensor/tensor_elements.hpp"

#include <algorithm>
#include <cstring>

#include "tensor/tensor_messages.hpp"

namespace dumpcmp {
namespace {

std::string tensor_label(const DumpFile& file, const TensorInfo& t) {
  return file.path + ": " + std::string(tensor_group_name(t.group)) + " " + std::to_string(t.index);
}

std::string dtype_label(DType t) {
  const std::string_view name = dtype_wire_name(t);
  return name.empty() ? "DT_" + std::to_string(static_cast<int32_t>(t)) : std::string(name);
}

}  // namespace

ElementCheck tensor_element_source(const DumpFile& file, const TensorInfo& t, ElementSource& src) {
  const auto item = static_cast<int64_t>(dtype_storage_size(t.dtype));
  if (item == 0) {
    return {tensor_label(file, t) + " has data type " + dtype_label(t.dtype) +
                ", which cannot be compared",
            {}};
  }
  const std::optional<int64_t> count = shape_element_count(t.shape);
  int64_t needed = 0;
  if (!count || __builtin_mul_overflow(*count, item, &needed)) {
    return {tensor_label(file, t) + " has shape " + shape_to_string(t.shape) +
                ", whose element count overflows",
            {}};
  }
  const int64_t held =
      t.size < static_cast<uint64_t>(needed) ? static_cast<int64_t>(t.size) : needed;
  if (held % item != 0) {
    return {tensor_label(file, t) + " holds " + std::to_string(t.size) +
                " bytes, not a whole number of " + dtype_label(t.dtype) + " elements",
            {}};
  }
  ElementCheck check;
  if (held < needed) {
    check.note = tensor_label(file, t) + " holds only " + std::to_string(held / item) + " of the " +
                 std::to_string(*count) + " elements of shape " + shape_to_string(t.shape) +
                 "; compared those";
  }
  src.data = file.tensor_data(t);
  src.dtype = t.dtype;
  src.count = t.dtype == DType::kUInt1 ? held * 8 : held / item;  // msaccucmp unpacks the bytes
  return check;
}

std::string undecodable_dtype_message(const DumpFile& file) {
  for (TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
    for (const TensorInfo& t : file.group(g)) {
      if (!dtype_is_decodable(t.dtype)) {
        return msg::output_dtype_not_supported(static_cast<int32_t>(t.dtype));
      }
    }
  }
  return {};
}

std::string fp16_overflow_cell(const DumpFile& file, const TensorInfo& t) {
  if (t.dtype != DType::kFloat16) return "NaN";
  const uint8_t* d = file.tensor_data(t);
  const auto elements = shape_element_count(t.shape);
  const uint64_t n =
      std::min<uint64_t>(t.size / 2, elements ? static_cast<uint64_t>(*elements) : 0);
  if (n == 0) return "NaN";
  bool over = false;
  for (uint64_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, d + 2 * i, 2);
    const uint16_t magnitude = h & 0x7fffu;
    if (magnitude > 0x7c00u) return "NO";  // NaN
    over = over || magnitude >= 0x7bffu;   // 65504 and inf
  }
  return over ? "YES" : "NO";
}

}  // namespace dumpcmp
