// numpy's float64 dot in OpenBLAS's order (math/blas_dot.hpp): the parts its threads take, chunked
// feeding, and values numpy 2.4.6 (OpenBLAS 0.3.31, SkylakeX and Haswell kernels, 2 threads) gave.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "math/blas_dot.hpp"

namespace dumpcmp {
namespace {

std::vector<double> ramp(int64_t n, int64_t factor, int64_t modulus, double divisor) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = static_cast<double>((i * factor) % modulus - modulus / 2) / divisor;
  return v;
}

TEST(BlasDot, PartsAsOpenBlasThreadsTakeThem) {
  EXPECT_EQ(blas_dot_parts(10000, 2), (std::vector<int64_t>{10000}));
  EXPECT_EQ(blas_dot_parts(10001, 2), (std::vector<int64_t>{5001, 5000}));
  EXPECT_EQ(blas_dot_parts(100003, 3), (std::vector<int64_t>{33335, 33334, 33334}));
  EXPECT_EQ(blas_dot_parts(20000, 1), (std::vector<int64_t>{20000}));
}

TEST(BlasDot, ChunkedFeedingGivesTheSameBits) {
  const std::vector<double> x = ramp(1000, 7919, 1000, 37.0), y = ramp(1000, 104729, 997, 41.0);
  for (const BlasDotKernel kernel : {BlasDotKernel::kSkylakeX, BlasDotKernel::kHaswell}) {
    BlasDot whole(1000, kernel), pieces(1000, kernel);
    whole.add(x.data(), y.data(), 1000);
    for (int64_t at = 0; at < 1000; at += 7) {
      const int64_t n = std::min<int64_t>(7, 1000 - at);
      pieces.add(x.data() + at, y.data() + at, n);
    }
    EXPECT_EQ(whole.result(), pieces.result());
  }
}

// The device threads' one-product-at-a-time form (math/blas_dot_serial.hpp) gives the CPU's bits
// at every length around the kernels' block edges.
TEST(BlasDot, SerialFormGivesTheSameBits) {
  const std::vector<double> x = ramp(1100, 7919, 1000, 37.0), y = ramp(1100, 104729, 997, 41.0);
  for (const BlasDotKernel kernel : {BlasDotKernel::kSkylakeX, BlasDotKernel::kHaswell}) {
    for (int64_t n : {0, 1, 9, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100, 1000, 1100}) {
      BlasDot blocked(n, kernel);
      blocked.add(x.data(), y.data(), n);
      BlasDotSerial serial(n, kernel);
      for (int64_t i = 0; i < n; ++i) serial.add(x[i], y[i]);
      EXPECT_EQ(serial.result(), blocked.result()) << n;
    }
  }
}

TEST(BlasDot, EqualsNumpyOnThisOrder) {
  struct Case {
    BlasDotKernel kernel;
    int64_t n;
    double dot, norm;
  };
  constexpr BlasDotKernel kSkx = BlasDotKernel::kSkylakeX, kHsw = BlasDotKernel::kHaswell;
  // SkylakeX: an Intel Xeon. Haswell: an AMD Zen 5; n = 9 is all tail, a multiply and an add each.
  for (const Case c : {Case{kSkx, 37, -0x1.2ce149687573ep+8, 0x1.7bad721f59f16p+5},
                       Case{kSkx, 1000, -0x1.940c51ad4f7ccp+8, 0x1.ed71b9a4b6946p+7},
                       Case{kSkx, 20011, 0x1.a7c736d857c64p+9, 0x1.13e961a05ee5bp+10},
                       Case{kHsw, 9, -0x1.29cf0fb1b2b5ep+7, 0x1.629b2fad6f12dp+4},
                       Case{kHsw, 37, -0x1.2ce1496875740p+8, 0x1.7bad721f59f16p+5},
                       Case{kHsw, 1000, -0x1.940c51ad4f79cp+8, 0x1.ed71b9a4b6946p+7},
                       Case{kHsw, 20011, 0x1.a7c736d857bd8p+9, 0x1.13e961a05ee5bp+10}}) {
    // x = ((i * 7919) % 1000 - 500) / 37, y = ((i * 104729) % 997 - 498) / 41
    const std::vector<double> x = ramp(c.n, 7919, 1000, 37.0), y = ramp(c.n, 104729, 997, 41.0);
    EXPECT_EQ(blas_dot(x.data(), y.data(), c.n, 2, c.kernel), c.dot) << c.n;
    EXPECT_EQ(std::sqrt(blas_dot(x.data(), x.data(), c.n, 2, c.kernel)), c.norm) << c.n;
  }
  // Integers are summed exactly in any order; a negative zero comes back as numpy's 0.0.
  const std::vector<double> ones(100, 1.0), zeros(100, -0.0);
  EXPECT_EQ(blas_dot(ones.data(), ones.data(), 100, 2, BlasDotKernel::kHaswell), 100.0);
  EXPECT_FALSE(std::signbit(blas_dot(ones.data(), zeros.data(), 100, 2, BlasDotKernel::kSkylakeX)));
}

}  // namespace
}  // namespace dumpcmp
