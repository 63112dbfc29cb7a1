#pragma once
// One tensor as torch.save writes it (docs/formats.md §11), read without torch: the zip archive
// (ZIP64 too, entries stored uncompressed) and the small part of pickle that describes a tensor.
// The elements are not copied: the tensor points into the caller's bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.hpp"

namespace dumpcmp {

struct TorchTensor {
  DType dtype = DType::kUndefined;
  std::string dtype_name;        // torch's name: "float32", "bfloat16", "float8_e4m3fn"
  std::vector<int64_t> shape;    // empty: a 0-d tensor
  std::vector<int64_t> strides;  // in elements
  int64_t storage_offset = 0;    // in elements
  const uint8_t* storage = nullptr;
  uint64_t storage_bytes = 0;
  bool requires_grad = false;

  int64_t numel() const;
  // C order from storage_offset on: the elements can be read in place.
  bool contiguous() const;
};

// Reads the archive in [data, data + size), the file `path`. Throws Error(kInput) naming the file
// and the problem: not a zip, a compressed or missing entry, a pickle that is not one tensor, a
// dtype with no element type here (float8 *fnuz, complex32, quantized), a big-endian archive, or
// elements outside their storage.
TorchTensor parse_torch_tensor(const uint8_t* data, std::size_t size, const std::string& path);

// The storage class torch pickles a tensor of `dtype` with (torch._utils._rebuild_tensor_v2):
// "FloatStorage", ...; empty where torch pickles an UntypedStorage and the dtype instead.
std::string_view torch_storage_class(DType dtype);

}  // namespace dumpcmp
