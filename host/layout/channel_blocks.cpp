#include "layout/channel_blocks.hpp"

namespace dumpcmp {

int64_t ChannelBlocks::source_index(int64_t o, int64_t c, int64_t r) const {
  int64_t j = (c / c0) * block_stride + r * c0 + c % c0;
  for (int k = outer_rank - 1; k >= 0; --k) {
    j += (o % outer_dim[k]) * outer_stride[k];
    o /= outer_dim[k];
  }
  return j;
}

std::optional<ChannelBlocks> channel_blocks(const LayoutMap& map) {
  if (map.identity || map.zero_fill || map.tail != LayoutTail::kNone || map.rank < 2) return {};
  const int last = map.rank - 1;
  // The channel axis: split by c0; or, where the map has only one block (no more than c0 channels,
  // the split simplified away), the unsplit axis of unit stride.
  int axis = -1;
  for (int k = 0; k < map.rank; ++k) {
    if (map.split[k] == 0) continue;
    if (axis >= 0) return {};
    axis = k;
  }
  ChannelBlocks b;
  if (axis >= 0) {
    b.c0 = map.split[axis];
    b.block_stride = map.stride_hi[axis];
  } else {
    for (int k = 0; k < last && axis < 0; ++k) {
      if (map.stride_lo[k] == 1) axis = k;
    }
    if (axis < 0 || map.dim[axis] > map.stride_lo[last]) return {};
    b.c0 = map.stride_lo[last];
  }
  if (axis == last || b.c0 < 2 || map.stride_lo[axis] != 1 || map.stride_lo[last] != b.c0)
    return {};
  b.channels = map.dim[axis];
  for (int k = last; k > axis; --k) {
    if (k < last && map.stride_lo[k] != map.stride_lo[k + 1] * map.dim[k + 1]) return {};
    b.inner *= map.dim[k];
  }
  b.outer_rank = axis;
  for (int k = 0; k < axis; ++k) {
    b.outer *= map.dim[k];
    b.outer_dim[k] = map.dim[k];
    b.outer_stride[k] = map.stride_lo[k];
  }
  return b;
}

}  // namespace dumpcmp
