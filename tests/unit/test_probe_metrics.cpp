// Tensor mode's numbers (docs/msprobe-compare.md §5.3): the vector lift and widening loads give the
// scalar template's results, and the chain of checks gives msprobe's cells on small cases whose
// answers are known; the whole compare against msprobe's own files is
// tests/cli/test_probe_compare.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "math/element_decode.hpp"
#include "math/probe_accumulator.hpp"
#include "probe/probe_metrics.hpp"
#include "simd/probe_lift.hpp"

namespace dumpcmp {
namespace {

void expect_same(const ProbeAccumulator& a, const ProbeAccumulator& b) {
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.unmatched_special, b.unmatched_special);
  EXPECT_EQ(a.max_abs, b.max_abs);
  EXPECT_EQ(a.max_relative, b.max_relative);
  EXPECT_EQ(a.relative_nan, b.relative_nan);
  EXPECT_EQ(a.below_thousandth, b.below_thousandth);
  EXPECT_EQ(a.below_five_thousandths, b.below_five_thousandths);
}

TEST(ProbeLift, VectorCodeGivesTheScalarTemplatesResults) {
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  for (const int64_t n : {0, 1, 7, 8, 33, 1000}) {
    std::vector<double> x(n), y(n);
    for (int64_t i = 0; i < n; ++i) {
      y[i] = normal(rng);
      x[i] = static_cast<float>(y[i] + 0.001 * normal(rng));
      if (i % 13 == 3) y[i] = 0.0;
      if (i % 17 == 5) x[i] = y[i] = NAN;
      if (i % 19 == 7) x[i] = INFINITY, y[i] = -INFINITY;
      if (n == 1000 && i == 500) x[i] = NAN;  // unmatched
    }
    for (const bool f32 : {true, false}) {
      std::vector<double> xs = x, ys = y, ds(n), xv = x, yv = y, dv(n);
      const ProbeAccumulator scalar =
          f32 ? lift_probe_chunk<float>(xs.data(), ys.data(), ds.data(), n)
              : lift_probe_chunk<double>(xs.data(), ys.data(), ds.data(), n);
      expect_same(simd::lift_probe_chunk(xv.data(), yv.data(), dv.data(), n, f32), scalar);
      if (n == 0) continue;  // memcmp takes no null pointers, even for 0 bytes
      EXPECT_EQ(std::memcmp(xs.data(), xv.data(), 8 * n), 0);
      EXPECT_EQ(std::memcmp(ds.data(), dv.data(), 8 * n), 0);
    }
  }
}

TEST(ProbeLift, WideningLoadsAreExact) {
  std::vector<uint16_t> halves(65536);
  for (int i = 0; i < 65536; ++i) halves[i] = static_cast<uint16_t>(i);
  std::vector<double> out(65536);
  const auto* bytes = reinterpret_cast<const uint8_t*>(halves.data());
  simd::float16_to_double(bytes, 65536, out.data());
  for (int i = 0; i < 65536; ++i) {
    const double want = decode_fp16(halves[i]);
    ASSERT_TRUE(out[i] == want || (std::isnan(out[i]) && std::isnan(want))) << i;
  }
  simd::bfloat16_to_double(bytes, 65536, out.data());
  for (int i = 0; i < 65536; ++i) {
    const double want = decode_bf16(halves[i]);
    ASSERT_TRUE(out[i] == want || (std::isnan(out[i]) && std::isnan(want))) << i;
  }
  const std::vector<float> floats = {1.5f, -0.0f, 3e38f, 1e-45f, INFINITY, 0.1f, -7.25f};
  std::vector<double> wide(floats.size());
  simd::float32_to_double(reinterpret_cast<const uint8_t*>(floats.data()), 7, wide.data());
  for (size_t i = 0; i < floats.size(); ++i) EXPECT_EQ(wide[i], double{floats[i]});
}

// An array over `bytes` (kept alive by the caller) with its squeezed shape.
ProbeArray array(DType dtype, std::vector<int64_t> shape, const std::vector<uint8_t>& bytes) {
  ProbeArray a;
  a.dtype = dtype;
  a.numel = 1;
  for (const int64_t d : shape) a.numel *= d;
  a.shape = std::move(shape);
  a.data = bytes.data();
  return a;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<std::string> cells(const ProbeMetrics& m) {
  std::vector<std::string> out;
  for (const ProbeCell& c : m) out.push_back(c.csv());
  return out;
}

TEST(ProbeMetrics, ChainAndCellsOnKnownCases) {
  using V = std::vector<std::string>;
  const auto a = bytes_of<float>({1, 2, 3, 4}), b = bytes_of<float>({1, 2, 3, 5});
  // The values msprobe 26.2.0's compare_ops_apply gave for the same arrays.
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {4}, a), array(DType::kFloat, {4}, b))),
            (V{"0.993999088548", "1.0", "1.0", "0.20000000298", "0.75", "0.75"}));
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {4}, a), array(DType::kFloat, {2, 2}, b))),
            V(6, "shape unmatched"));
  const auto zeros = bytes_of<float>({0, 0, 0, 0});
  EXPECT_EQ(
      cells(probe_metrics(array(DType::kFloat, {4}, zeros), array(DType::kFloat, {4}, zeros))),
      (V{"1.0", "0.0", "0.0", "0.0", "1.0", "1.0"}));
  const auto nan_at_0 = bytes_of<float>({NAN, 2, 3, 4}), nan_at_1 = bytes_of<float>({1, NAN, 3, 4});
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {4}, nan_at_0),
                                array(DType::kFloat, {4}, nan_at_1))),
            V(6, "N/A"));
  // 0-d: integers subtract in their own type (3 - 5 wraps to 254 in uint8).
  const auto three = bytes_of<uint8_t>({3}), five = bytes_of<uint8_t>({5});
  EXPECT_EQ(cells(probe_metrics(array(DType::kUInt8, {}, three), array(DType::kUInt8, {}, five))),
            (V{"unsupported", "unsupported", "254.0", "0.4", "unsupported", "unsupported"}));
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {0}, {}), array(DType::kFloat, {0}, {}))),
            V(6, "unsupported"));
}

}  // namespace
}  // namespace dumpcmp
