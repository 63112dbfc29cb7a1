#include "dumpcmp/engine/tensor_elements.hpp"

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

std::string tensor_element_source(const DumpFile& file, const TensorInfo& t, ElementSource& src) {
  const std::size_t item = dtype_storage_size(t.dtype);
  if (item == 0) return tensor_label(file, t) + " has data type " + dtype_label(t.dtype) + ", which cannot be compared";
  const std::optional<int64_t> count = shape_element_count(t.shape);
  int64_t bytes = 0;
  if (!count || __builtin_mul_overflow(*count, static_cast<int64_t>(item), &bytes)) {
    return tensor_label(file, t) + " has shape " + shape_to_string(t.shape) +
           ", whose element count overflows";
  }
  if (static_cast<uint64_t>(bytes) > t.size) {
    return tensor_label(file, t) + " holds " + std::to_string(t.size) + " bytes but shape " +
           shape_to_string(t.shape) + " of " + dtype_label(t.dtype) + " needs " +
           std::to_string(bytes);
  }
  src.data = file.tensor_data(t);
  src.dtype = t.dtype;
  src.count = t.dtype == DType::kUInt1 ? *count * 8 : *count;  // msaccucmp unpacks prod(shape) bytes
  return {};
}

std::string undecodable_dtype_message(const DumpFile& file) {
  for (TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
    for (const TensorInfo& t : file.group(g)) {
      if (!dtype_is_decodable(t.dtype)) {
        return "The output data type (" + std::to_string(static_cast<int32_t>(t.dtype)) +
               ") does not support.";
      }
    }
  }
  return {};
}

}  // namespace dumpcmp
