#pragma once
// numpy's float64 dot product (np.dot, np.linalg.norm) in the order the OpenBLAS of numpy's wheels
// sums it on x86-64 (docs/msprobe-compare.md §5.3): msprobe writes EucDist unrounded, so its last
// digits are those of this order. Above 10,000 elements the vector is cut into one part per
// OpenBLAS thread, each part summed alone and the parts added in order. In a part, the first
// multiple of 16 elements goes through the vector kernel with fused multiply-adds (SkylakeX: 32
// lanes over the multiple of 32, folded to 16; Haswell: 16 lanes), then the rest one by one
// (SkylakeX: fused; Haswell: a multiply, then an add).
#include <cmath>
#include <cstdint>
#include <vector>

#include "math/blas_dot_serial.hpp"  // BlasDotKernel

namespace dumpcmp {

// The kernel this CPU's OpenBLAS picks (AVX-512: SkylakeX, but Haswell on AMD Zen 5, which
// OpenBLAS 0.3.31 does not know; else Haswell; DUMPCMP_BLAS_DOT=skylakex
// or haswell, to match files msprobe wrote on another machine), and its thread count
// (OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or OMP_NUM_THREADS, else the CPUs this process may use;
// at most 64, the wheels' MAX_THREADS).
BlasDotKernel host_blas_dot_kernel();
int host_blas_threads();

// How numpy's OpenBLAS sums a dot: its kernel and thread count (blas_dot_parts cuts by them).
struct BlasOrder {
  BlasDotKernel kernel = BlasDotKernel::kHaswell;
  int threads = 1;
};
// This host's: host_blas_dot_kernel() and host_blas_threads().
BlasOrder host_blas_order();

// The lengths of the parts a dot of n elements is cut into (blas_level1_thread's widths).
std::vector<int64_t> blas_dot_parts(int64_t n, int threads);

// One part's dot, fed its products' factors in order.
class BlasDot {
 public:
  BlasDot(int64_t n, BlasDotKernel kernel);
  void add(const double* x, const double* y, int64_t count);
  double result() const;

 private:
  int64_t pos_ = 0;
  int64_t n16_, n32_;  // the kernel's elements, and the 32-lane loop's
  BlasDotKernel kernel_;
  double wide_[32] = {};   // the 32-lane accumulators (4 x 8), SkylakeX
  double lanes_[16] = {};  // the 16-lane accumulators (4 x 4)
  bool folded_ = false;
  double tail_ = 0.0;
  void fold();
  double kernel_sum() const;
};

// The dot of one vector with another, cut as OpenBLAS cuts it.
double blas_dot(const double* x, const double* y, int64_t n, int threads, BlasDotKernel kernel);

}  // namespace dumpcmp
