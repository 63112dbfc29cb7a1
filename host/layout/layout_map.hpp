#pragma once
// Where element i of a restored tensor (layout converted, padding cropped, row-major) lives in the
// dumped device-layout buffer. Reductions read through the map instead of converting a copy, so the
// struct is trivially copyable and allocation-free and source_index() compiles for CPU and GPU.
#include <cstdint>

#include "core/host_device.hpp"

namespace dumpcmp {

inline constexpr int kLayoutMaxAxes = 8;
inline constexpr int kLayoutTailParams = 12;

// Conversions whose index math does not split along the result axes run as a second stage on the
// flat index the strided stage produces.
enum class LayoutTail : int32_t {
  kNone = 0,
  // FRACTAL_Z_C04 (K1, N1, Ni, K0) read as (N, C, H, W): params N, C, H, W, N1, Ni, K0.
  kFractalZC04 = 1,
  // NCHW/NHWC/HWCN written as FRACTAL_Z (R, N1, 16, 16) with groups, msaccucmp's forward transform:
  // params R, N1, C, H, W, n_per_group, e, groups, stride N, stride C, stride H, stride W.
  kToFractalZ = 2,
};

struct LayoutMap {
  int64_t count = 0;       // elements of the restored tensor
  bool identity = true;    // source_index(i) == i: callers may skip the index math
  bool zero_fill = false;  // source_index may return -1: that element is 0 (padding of a forward
                           // transform), not a read from the buffer
  // Strided stage, outermost axis first: result coordinate o of axis k adds
  // (o / split) * stride_hi + (o % split) * stride_lo, or o * stride_lo when split == 0.
  int32_t rank = 0;
  int64_t dim[kLayoutMaxAxes] = {};
  int64_t split[kLayoutMaxAxes] = {};
  int64_t stride_hi[kLayoutMaxAxes] = {};
  int64_t stride_lo[kLayoutMaxAxes] = {};
  LayoutTail tail = LayoutTail::kNone;
  int64_t tail_param[kLayoutTailParams] = {};

  // Flat index into the dump buffer for element i (0 <= i < count) of the restored tensor, or -1
  // for a zero-filled position (only when zero_fill).
  DUMPCMP_HD int64_t source_index(int64_t i) const;

 private:
  DUMPCMP_HD int64_t axis_offset(int k, int64_t o) const {
    if (split[k] == 0) return o * stride_lo[k];
    return (o / split[k]) * stride_hi[k] + (o % split[k]) * stride_lo[k];
  }
};

namespace layout_detail {

DUMPCMP_HD inline int64_t fractal_z_c04_index(const int64_t* p, int64_t j) {
  const int64_t c_dim = p[1], h_dim = p[2], w_dim = p[3];
  const int64_t n1 = p[4], ni = p[5], k0 = p[6];
  const int64_t w = j % w_dim;
  j /= w_dim;
  const int64_t h = j % h_dim;
  j /= h_dim;
  const int64_t c = j % c_dim;
  const int64_t n = j / c_dim;
  // GE pads C to 4, flattens (H, W, 4) into one axis z and tiles (N, z) as (z/K0, N/Ni, Ni, K0).
  const int64_t z = (h * w_dim + w) * 4 + c;
  return (((z / k0) * n1 + n / ni) * ni + n % ni) * k0 + z % k0;
}

// Inverse of msaccucmp's X -> FRACTAL_Z loop (docs/algorithms.md §6.3). The forward loop writes
// element (g, n, c, h, w) to row ((g / e + 1) * (dc / 16)) * H * W + h * W + w, so several groups
// can land on one position: the last writer (the largest group) wins, as in the Python loop.
DUMPCMP_HD inline int64_t to_fractal_z_index(const int64_t* p, int64_t j) {
  const int64_t n1 = p[1], c_dim = p[2], h_dim = p[3], w_dim = p[4];
  const int64_t n_g = p[5], e = p[6], groups = p[7];
  const int64_t c0 = j % 16;
  const int64_t ni = (j / 16) % 16;
  const int64_t no = (j / 256) % n1;
  const int64_t r = j / (256 * n1);
  const int64_t dn = no * 16 + ni;
  const int64_t ev = dn / n_g;  // which member of the e-group block this column belongs to
  if (ev >= e) return -1;
  const int64_t n = dn % n_g;
  const int64_t hw = h_dim * w_dim;
  const int64_t q = r / hw;
  const int64_t h = (r % hw) / w_dim;
  const int64_t w = r % w_dim;
  // dc = 16 * k + c0 must fall inside [ev * C, ev * C + C).
  const int64_t lo = ev * c_dim - c0;
  const int64_t hi = ev * c_dim + c_dim - 1 - c0;
  if (hi < 0) return -1;
  int64_t k = lo <= 0 ? 0 : (lo + 15) / 16;
  int64_t best_g = -1, best_k = 0;
  for (; 16 * k <= hi; ++k) {
    int64_t g = -1;
    if (k == 0) {
      if (q == 0 && groups - 1 >= ev) g = ((groups - 1 - ev) / e) * e + ev;
    } else if (q % k == 0 && q / k >= 1) {
      g = (q / k - 1) * e + ev;
      if (g >= groups) g = -1;
    }
    if (g > best_g) {
      best_g = g;
      best_k = k;
    }
  }
  if (best_g < 0) return -1;
  const int64_t c = 16 * best_k + c0 - ev * c_dim;
  return (best_g * n_g + n) * p[8] + c * p[9] + h * p[10] + w * p[11];
}

}  // namespace layout_detail

DUMPCMP_HD inline int64_t LayoutMap::source_index(int64_t i) const {
  if (identity) return i;
  int64_t j = 0;
  for (int k = rank - 1; k > 0; --k) {
    j += axis_offset(k, i % dim[k]);
    i /= dim[k];
  }
  if (rank > 0) j += axis_offset(0, i);
  switch (tail) {
    case LayoutTail::kFractalZC04:
      return layout_detail::fractal_z_c04_index(tail_param, j);
    case LayoutTail::kToFractalZ:
      return layout_detail::to_fractal_z_index(tail_param, j);
    case LayoutTail::kNone:
      break;
  }
  return j;
}

}  // namespace dumpcmp
