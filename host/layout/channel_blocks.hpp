#pragma once
// A layout map that reads channel-interleaved blocks (NC1HWC0 -> NCHW and the like), seen whole:
// the restored tensor is outer x channels x inner, and channels c1 * c0 ... c1 * c0 + c0 - 1 of an
// outer index lie interleaved in one contiguous stretch of the source, [inner][c0]. A whole-tensor
// gather can then read each stretch once, in order, instead of once per channel.
#include <cstdint>
#include <optional>

#include "layout/layout_map.hpp"

namespace dumpcmp {

struct ChannelBlocks {
  int64_t outer = 1;         // product of the axes before the channel axis
  int64_t channels = 0;      // the channel axis' length (padding channels are not in it)
  int64_t c0 = 0;            // channels interleaved in a block
  int64_t inner = 1;         // product of the axes after it: one channel's elements in a block
  int64_t block_stride = 0;  // source elements from block c1 to block c1 + 1
  int outer_rank = 0;        // axes before the channel axis, with their lengths and strides
  int64_t outer_dim[kLayoutMaxAxes] = {};
  int64_t outer_stride[kLayoutMaxAxes] = {};

  // Source index of element r of channel c at outer index o.
  int64_t source_index(int64_t o, int64_t c, int64_t r) const;
};

// The block structure of map, or nothing when it has none: one channel axis of unit low stride,
// split by c0 > 1 (or unsplit, when the map holds one block: then c0 is the innermost stride),
// unsplit axes around it, those after it contiguous with innermost stride c0, no tail and no zero
// fill.
std::optional<ChannelBlocks> channel_blocks(const LayoutMap& map);

}  // namespace dumpcmp
