// A torch.save file (docs/formats.md §11) read as one tensor: the zip directory, the pickle, and
// the reach of its size and stride into the storage, whose first and last elements are then read.
#include "io/torch_pt.hpp"

#include <cstddef>
#include <cstdint>

#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    const TorchTensor t = parse_torch_tensor(data, size, "tensor.pt");
    if (t.numel() == 0) return;
    const std::size_t item = dtype_storage_size(t.dtype);
    int64_t last = t.storage_offset;
    for (std::size_t d = 0; d < t.shape.size(); ++d) last += (t.shape[d] - 1) * t.strides[d];
    volatile uint8_t touch = t.storage[static_cast<std::size_t>(t.storage_offset) * item];
    touch = t.storage[static_cast<std::size_t>(last) * item + item - 1];
    (void)touch;
  });
  return 0;
}
