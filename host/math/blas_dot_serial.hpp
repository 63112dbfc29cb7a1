#pragma once
// One OpenBLAS part of numpy's float64 dot (math/blas_dot.hpp, docs/msprobe-compare.md §5.3) fed
// one product at a time, for code that cannot run the CPU's blocked loops (a device thread): the
// same lanes, fold, lane sums and tail, so the same bits.
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"

namespace dumpcmp {

enum class BlasDotKernel { kSkylakeX, kHaswell };

// SkylakeX's fold of its 32 lanes (4 accumulators x 8) into 16 (4 x 4): lanes j and j + 4 added.
DUMPCMP_HD inline void blas_fold_wide_lanes(const double* wide, double* lanes) {
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l) lanes[k * 4 + l] = wide[k * 8 + l] + wide[k * 8 + l + 4];
}

// The kernel's sum of its 16 lanes (accumulator k, lane l: a[k * 4 + l]) in its order.
DUMPCMP_HD inline double blas_kernel_sum(const double* a, bool skylakex) {
  if (skylakex) {
    double s[4];
    for (int l = 0; l < 4; ++l) s[l] = ((a[l] + a[4 + l]) + a[8 + l]) + a[12 + l];
    return (s[0] + s[2]) + (s[1] + s[3]);
  }
  double t[4][2];
  for (int k = 0; k < 4; ++k) {
    t[k][0] = a[k * 4] + a[k * 4 + 2];
    t[k][1] = a[k * 4 + 1] + a[k * 4 + 3];
  }
  const double w0 = (t[0][0] + t[1][0]) + (t[2][0] + t[3][0]);
  const double w1 = (t[0][1] + t[1][1]) + (t[2][1] + t[3][1]);
  return w0 + w1;
}

// The vector kernel's lanes: each lane's products form one chain of fused multiply-adds over
// the elements lane, lane + lanes, ..., independent of the other lanes (SkylakeX: 32 over the first
// multiple of 32 elements; Haswell: 16 over the first multiple of 16), so a device can run one
// thread per lane and finish the part with BlasDotSerial::seed_lanes.
DUMPCMP_HD inline int blas_lanes(BlasDotKernel kernel) {
  return kernel == BlasDotKernel::kSkylakeX ? 32 : 16;
}
// How many of a part's n elements its lanes take.
DUMPCMP_HD inline int64_t blas_lane_elements(int64_t n, BlasDotKernel kernel) {
  const int64_t n16 = n & ~int64_t{15};
  return kernel == BlasDotKernel::kSkylakeX ? n16 & ~int64_t{31} : n16;
}

class BlasDotSerial {
 public:
  DUMPCMP_HD BlasDotSerial(int64_t n, BlasDotKernel kernel)
      : n16_(n & ~int64_t{15}),
        n32_(kernel == BlasDotKernel::kSkylakeX ? n16_ & ~int64_t{31} : 0),
        skylakex_(kernel == BlasDotKernel::kSkylakeX) {}

  // Continues the part as if its first blas_lane_elements(n) elements had been added: sums[l] is
  // lane l's chain over them (blas_lanes of them). Only before any add().
  DUMPCMP_HD void seed_lanes(const double* sums) {
    if (skylakex_ && n32_ > 0) {
      for (int l = 0; l < 32; ++l) wide_[l] = sums[l];
      pos_ = n32_;
    } else if (!skylakex_ && n16_ > 0) {
      for (int l = 0; l < 16; ++l) lanes_[l] = sums[l];
      folded_ = true;  // Haswell has no wide lanes to fold
      pos_ = n16_;
    }
  }

  DUMPCMP_HD void add(double x, double y) {
    if (pos_ < n32_) {
      wide_[pos_ & 31] = fma(x, y, wide_[pos_ & 31]);
    } else if (pos_ < n16_) {
      if (!folded_) fold();
      lanes_[(pos_ - n32_) & 15] = fma(x, y, lanes_[(pos_ - n32_) & 15]);
    } else {
      if (pos_ == n16_ && n16_ > 0) {
        if (!folded_) fold();
        tail_ = kernel_sum();
      }
      // SkylakeX's tail is fused; Haswell's a multiply then an add (built without contraction).
      tail_ = skylakex_ ? fma(y, x, tail_) : tail_ + y * x;
    }
    ++pos_;
  }

  DUMPCMP_HD double result() {
    if (pos_ > n16_ || n16_ == 0) return tail_;
    if (!folded_) fold();  // no tail: the kernel's sum is the dot
    return kernel_sum();
  }

 private:
  int64_t pos_ = 0;
  int64_t n16_, n32_;  // the kernel's elements, and the 32-lane loop's
  bool skylakex_;
  bool folded_ = false;
  double wide_[32] = {};   // the 32-lane accumulators (4 x 8), SkylakeX
  double lanes_[16] = {};  // the 16-lane accumulators (4 x 4)
  double tail_ = 0.0;

  DUMPCMP_HD void fold() {
    folded_ = true;
    if (n32_ > 0) blas_fold_wide_lanes(wide_, lanes_);
  }
  DUMPCMP_HD double kernel_sum() const { return blas_kernel_sum(lanes_, skylakex_); }
};

}  // namespace dumpcmp
