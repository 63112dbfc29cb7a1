#pragma once
// The CPU's bulk decode: a chunk of a tensor into float32, the dtype switch hoisted out of the
// loop, binary16, bfloat16 and one-byte types through the vector kernels (narrow_decode), layouts
// gathered through their map.
#include <cstdint>

#include "math/element_source.hpp"

namespace dumpcmp {

// Whether a decode can keep src's gathered elements (keep below): a 16-bit float type (binary16,
// bfloat16) read through a layout, whose raw bits in the compared order then read again in order,
// without the layout, as the same elements.
bool can_keep_gathered(const ElementSource& src);

// All of a 16-bit float src whose layout reads blocks of 16 interleaved channels
// (layout/channel_blocks.hpp: NC1HWC0, or NHWC with 16 channels), as raw bits in the compared
// order, into out (src.count values): each block's stretch is read once, in order, and transposed,
// on `threads` threads. False, out untouched, when src has no such layout.
bool gather_bits16_by_blocks(const ElementSource& src, uint16_t* out, int threads);

// Elements [begin, begin + n) of src, as load_element gives them, into out. keep: where
// can_keep_gathered(src), also their raw bits, into keep[0, n).
void decode_elements(const ElementSource& src, int64_t begin, int64_t n, float* out,
                     uint16_t* keep = nullptr);

// The same elements without a copy where the payload already is them (float32 in its own order,
// at any alignment); else decoded into scratch, which holds n floats (keep: as above).
Float32Bytes elements_of(const ElementSource& src, int64_t begin, int64_t n, float* scratch,
                         uint16_t* keep = nullptr);

// Elements [begin, begin + n) of src as the chunk lifts take them (simd/chunk_lift.hpp): binary16
// and bfloat16 as their bits, where they lie (no layout) or, given keep (can_keep_gathered),
// gathered into it; anything else as elements_of gives it.
ChunkSide chunk_side(const ElementSource& src, int64_t begin, int64_t n, float* scratch,
                     uint16_t* keep = nullptr);

}  // namespace dumpcmp
