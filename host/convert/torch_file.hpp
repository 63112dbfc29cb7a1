#pragma once
// A tensor as torch.save writes it (the zip format of torch >= 1.6, docs/formats.md §8.2): what
// `convert -t pt` writes, so that torch.load (weights_only too) gives the array msaccucmp saves
// through torch.from_numpy.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/dtype.hpp"
#include "core/shape.hpp"

namespace dumpcmp {

// `nbytes` of C-order elements of `dtype` in `shape`. Written atomically. Throws Error(kInput)
// naming the path for a dtype torch has no storage type for (uint16, uint32, uint64, ...) and for
// data of 4 GiB or more.
void write_torch_tensor(const std::string& path, DType dtype, const Shape& shape,
                        const uint8_t* data, std::size_t nbytes);

}  // namespace dumpcmp
