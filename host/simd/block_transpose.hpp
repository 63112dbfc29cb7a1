#pragma once
// 16-bit values stored in rows of c0 interleaved channels ([row][c0]: the C0 groups of NC1HWC0 and
// its kin) written out as one run per channel. Where c0 is 16 (every C0 of a 16-bit type) and the
// target's vectors hold 16 of them (AVX2, AVX-512), 16 rows at a time are transposed in registers;
// elsewhere, value by value. Either way the bits are moved, not converted.
#include <cstdint>

namespace dumpcmp::simd {

// dst[c * dst_stride + r] = the 16 bits at src + 2 * (r * c0 + c), for r < rows and
// c < channels <= c0. src at any alignment.
void transpose_rows16(const uint8_t* src, int64_t rows, int64_t c0, int64_t channels, uint16_t* dst,
                      int64_t dst_stride);

}  // namespace dumpcmp::simd
