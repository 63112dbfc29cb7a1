// Compiled once per SIMD target, like chunk_lift.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/block_transpose.cpp"
#include "simd/block_transpose.hpp"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::CappedTag<uint16_t, 16>;

#if HWY_TARGET != HWY_SCALAR  // one lane a vector: no blocks to interleave

// An 8 x 8 transpose inside each 128-bit block of in[0..8): out[k]'s lower block holds column k
// of the rows' lower blocks, its upper block column k of their upper blocks. Interleaves of 16,
// then 32, then 64 bits.
template <class D>
HWY_INLINE void Transpose8PerBlock(D d, const hn::Vec<D>* in, hn::Vec<D>* out) {
  const hn::RepartitionToWide<D> d32;
  const hn::RepartitionToWide<decltype(d32)> d64;
  hn::Vec<decltype(d32)> t[8];
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = hn::BitCast(d32, hn::InterleaveLower(d, in[2 * k], in[2 * k + 1]));
    t[2 * k + 1] = hn::BitCast(d32, hn::InterleaveUpper(d, in[2 * k], in[2 * k + 1]));
  }
  hn::Vec<decltype(d64)> u[8];
  for (int k = 0; k < 2; ++k) {  // rows 0-3 (k = 0) and rows 4-7 (k = 1)
    const int a = 4 * k;
    u[a] = hn::BitCast(d64, hn::InterleaveLower(d32, t[a], t[a + 2]));
    u[a + 1] = hn::BitCast(d64, hn::InterleaveUpper(d32, t[a], t[a + 2]));
    u[a + 2] = hn::BitCast(d64, hn::InterleaveLower(d32, t[a + 1], t[a + 3]));
    u[a + 3] = hn::BitCast(d64, hn::InterleaveUpper(d32, t[a + 1], t[a + 3]));
  }
  for (int k = 0; k < 4; ++k) {
    out[2 * k] = hn::BitCast(d, hn::InterleaveLower(d64, u[k], u[k + 4]));
    out[2 * k + 1] = hn::BitCast(d, hn::InterleaveUpper(d64, u[k], u[k + 4]));
  }
}

// Rows [0, rows - rows % 16) by 16 x 16 register transposes; returns how many rows it did.
template <class D>
HWY_INLINE int64_t TransposeWholeTiles(D d, const uint8_t* src, int64_t rows, int64_t channels,
                                       uint16_t* dst, int64_t dst_stride) {
  if constexpr (hn::MaxLanes(D()) != 16) {
    (void)d, (void)src, (void)rows, (void)channels, (void)dst, (void)dst_stride;
    return 0;
  } else {
    using V = hn::Vec<D>;
    int64_t r = 0;
    for (; r + 16 <= rows; r += 16) {
      V row[16], low[8], high[8];
      for (int i = 0; i < 16; ++i) {
        row[i] = hn::LoadU(d, reinterpret_cast<const uint16_t*>(src + 32 * (r + i)));
      }
      Transpose8PerBlock(d, row, low);       // rows 0-7: channel k | channel k + 8
      Transpose8PerBlock(d, row + 8, high);  // rows 8-15, the same
      for (int64_t c = 0; c < channels; ++c) {
        const int k = static_cast<int>(c % 8);
        const V column = c < 8 ? hn::ConcatLowerLower(d, high[k], low[k])
                               : hn::ConcatUpperUpper(d, high[k], low[k]);
        hn::StoreU(column, d, dst + c * dst_stride + r);
      }
    }
    return r;
  }
}

#else

template <class D>
HWY_INLINE int64_t TransposeWholeTiles(D, const uint8_t*, int64_t, int64_t, uint16_t*, int64_t) {
  return 0;
}

#endif

void TransposeRows16(const uint8_t* src, int64_t rows, int64_t c0, int64_t channels, uint16_t* dst,
                     int64_t dst_stride) {
  const int64_t done =
      c0 == 16 ? TransposeWholeTiles(D16(), src, rows, channels, dst, dst_stride) : 0;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t r = done; r < rows; ++r) {
      uint16_t bits;
      std::memcpy(&bits, src + 2 * (r * c0 + c), sizeof bits);
      dst[c * dst_stride + r] = bits;
    }
  }
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.hpp"

namespace dumpcmp::simd {

void transpose_rows16(const uint8_t* src, int64_t rows, int64_t c0, int64_t channels, uint16_t* dst,
                      int64_t dst_stride) {
  DUMPCMP_SIMD_PICK(TransposeRows16)(src, rows, c0, channels, dst, dst_stride);
}

}  // namespace dumpcmp::simd
#endif
