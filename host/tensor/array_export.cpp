#include "tensor/array_export.hpp"

#include <algorithm>
#include <cstring>

#include "layout/materialize.hpp"
#include "math/element_source.hpp"

namespace dumpcmp {

DType numpy_array_dtype(DType t) {
  switch (t) {
    case DType::kBFloat16:
      return DType::kFloat;
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E5M2:
    case DType::kHiFloat8:
      return DType::kDouble;
    case DType::kUInt1:
      return DType::kUInt8;
    default:
      return t;
  }
}

ExportedArray export_array(const uint8_t* data, DType dtype, const LayoutMap& map) {
  ExportedArray out;
  out.dtype = numpy_array_dtype(dtype);
  const int64_t n = map.count;
  const std::size_t width = dtype_storage_size(out.dtype);
  out.bytes = static_cast<std::size_t>(n) * width;
  if (out.dtype == dtype && map.identity) {
    out.data = data;  // nothing to convert or move
    return out;
  }
  out.owned.assign(out.bytes, 0);
  out.data = out.owned.data();
  constexpr int64_t kStep = 1 << 16;  // source indices through a small buffer
  std::vector<int64_t> index(
      static_cast<std::size_t>(std::min<int64_t>(std::max<int64_t>(n, 1), kStep)));
  for (int64_t begin = 0; begin < n; begin += kStep) {
    const int64_t count = std::min(kStep, n - begin);
    fill_source_indices(map, begin, count, index.data());
    uint8_t* dst = out.owned.data() + static_cast<std::size_t>(begin) * width;
    for (int64_t t = 0; t < count; ++t, dst += width) {
      const int64_t s = index[static_cast<std::size_t>(t)];
      if (s < 0) continue;
      if (out.dtype == dtype) {
        std::memcpy(dst, data + static_cast<std::size_t>(s) * width, width);
        continue;
      }
      const float v = decode_element(data, dtype, s);  // exact for every widened type
      if (out.dtype == DType::kDouble) {
        const double d = v;
        std::memcpy(dst, &d, 8);
      } else if (out.dtype == DType::kFloat) {
        std::memcpy(dst, &v, 4);
      } else {
        *dst = static_cast<uint8_t>(v);
      }
    }
  }
  return out;
}

ExportedArray export_array(const uint8_t* data, DType dtype, int64_t count) {
  LayoutMap identity;
  identity.count = count;
  return export_array(data, dtype, identity);
}

}  // namespace dumpcmp
