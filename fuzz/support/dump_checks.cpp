#include "support/dump_checks.hpp"

#include <memory>
#include <vector>

#include "layout/layout_plan.hpp"
#include "math/element_source.hpp"
#include "overflow/overflow_scan.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp::fuzz {
namespace {

double exercise_tensor(const DumpFile& file, const TensorInfo& tensor) {
  ElementSource src;
  const ElementCheck check = tensor_element_source(file, tensor, src);
  (void)fp16_overflow_cell(file, tensor);
  if (!check.error.empty()) return 0;
  (void)count_specials(file, tensor);
  const LayoutPlan plan = plan_npu_restore(tensor, src.count);
  const LayoutMap* map = plan.map.identity && plan.map.count == src.count ? nullptr : &plan.map;
  const int64_t count = map ? plan.map.count : src.count;
  double sum = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (map) {
      const int64_t from = map->source_index(i);
      if (from < -1 || from >= src.count) __builtin_trap();  // a map reading outside the payload
    }
    sum += load_element(src.data, src.dtype, map, i);
  }
  return sum;
}

}  // namespace

io_detail::SharedBytes owned_bytes(const uint8_t* data, std::size_t size) {
  return std::make_shared<const io_detail::OwnedByteSource>(
      std::vector<uint8_t>(data, data + size));
}

double exercise_dump(const DumpFile& file) {
  double sum = 0;
  for (const TensorGroup group :
       {TensorGroup::kInput, TensorGroup::kOutput, TensorGroup::kBuffer, TensorGroup::kWorkspace}) {
    for (const TensorInfo& tensor : file.group(group)) sum += exercise_tensor(file, tensor);
  }
  return sum;
}

}  // namespace dumpcmp::fuzz
