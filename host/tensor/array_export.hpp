#pragma once
// A dumped tensor as the numpy array msaccucmp makes of it (bf16 widened to float32, fp8 decoded
// to float64, uint1 unpacked to one byte per bit), optionally read through a layout map: what
// `convert` and `compare -op` save as .npy / .bin.
#include <cstdint>
#include <vector>

#include "core/dtype.hpp"
#include "layout/layout_map.hpp"

namespace dumpcmp {

// The dtype of msaccucmp's array for a dump dtype.
DType numpy_array_dtype(DType dump_dtype);

struct ExportedArray {
  DType dtype = DType::kFloat;
  const uint8_t* data = nullptr;  // into `owned`, or the dump's own bytes when nothing changed
  std::size_t bytes = 0;
  std::vector<uint8_t> owned;
};

// `map.count` elements; element i is the source's element map.source_index(i) (0 for padding).
ExportedArray export_array(const uint8_t* data, DType dtype, const LayoutMap& map);

// The first `count` elements in their own order (the dump's layout as it is).
ExportedArray export_array(const uint8_t* data, DType dtype, int64_t count);

}  // namespace dumpcmp
