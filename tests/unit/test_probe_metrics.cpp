// Tensor mode's numbers (docs/msprobe-compare.md §5.3): the vector lift and widening loads give the
// scalar template's results, and the chain of checks gives msprobe's cells on small cases whose
// answers are known; the whole compare against msprobe's own files is
// tests/cli/test_probe_compare.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "math/element_decode.hpp"
#include "math/probe_accumulator.hpp"
#include "math/probe_pair.hpp"
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
  CpuBackend cpu(2);
  const auto a = bytes_of<float>({1, 2, 3, 4}), b = bytes_of<float>({1, 2, 3, 5});
  // The values msprobe 26.2.0's compare_ops_apply gave for the same arrays.
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {4}, a), array(DType::kFloat, {4}, b), cpu)),
            (V{"0.993999088548", "1.0", "1.0", "0.20000000298", "0.75", "0.75"}));
  EXPECT_EQ(
      cells(probe_metrics(array(DType::kFloat, {4}, a), array(DType::kFloat, {2, 2}, b), cpu)),
      V(6, "shape unmatched"));
  const auto zeros = bytes_of<float>({0, 0, 0, 0});
  EXPECT_EQ(
      cells(probe_metrics(array(DType::kFloat, {4}, zeros), array(DType::kFloat, {4}, zeros), cpu)),
      (V{"1.0", "0.0", "0.0", "0.0", "1.0", "1.0"}));
  const auto nan_at_0 = bytes_of<float>({NAN, 2, 3, 4}), nan_at_1 = bytes_of<float>({1, NAN, 3, 4});
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {4}, nan_at_0),
                                array(DType::kFloat, {4}, nan_at_1), cpu)),
            V(6, "N/A"));
  // 0-d: integers subtract in their own type (3 - 5 wraps to 254 in uint8).
  const auto three = bytes_of<uint8_t>({3}), five = bytes_of<uint8_t>({5});
  EXPECT_EQ(
      cells(probe_metrics(array(DType::kUInt8, {}, three), array(DType::kUInt8, {}, five), cpu)),
      (V{"unsupported", "unsupported", "254.0", "0.4", "unsupported", "unsupported"}));
  // 0-d, equal and negative: the relative error 0 / -2 is -0.0, which np.abs writes as 0.0.
  const auto minus_two = bytes_of<float>({-2});
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {}, minus_two),
                                array(DType::kFloat, {}, minus_two), cpu)),
            (V{"unsupported", "unsupported", "0.0", "0.0", "unsupported", "unsupported"}));
  // 0-d complex: np.abs of the difference by numpy's vector formula, 1 ulp off hypot's 0.58113754
  const auto z = bytes_of<float>({0.4811493158340454f, -0.32590818405151367f}),
             zero = bytes_of<float>({0, 0});
  EXPECT_EQ(cells(probe_metrics(array(DType::kComplex64, {}, z), array(DType::kComplex64, {}, zero),
                                cpu)),
            (V{"unsupported", "unsupported", "0.581137478352", "2166903879499776.0", "unsupported",
               "unsupported"}));
  EXPECT_EQ(cells(probe_metrics(array(DType::kFloat, {0}, {}), array(DType::kFloat, {0}, {}), cpu)),
            V(6, "unsupported"));
}

// The device backends' form, one thread per lane of each part's kernel then a finish
// (math/probe_pair.hpp's reduce_probe_lane, finish_probe_part), gives the cpu backend's vector
// code's bits, for every dtype, around the OpenBLAS part and kernel block edges, with NaN, inf and
// zeros on either side. tests/parity holds thrust-omp and cuda to it.
uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

void expect_bits(const ProbeSums& a, const ProbeSums& b, const std::string& what) {
  SCOPED_TRACE(what);
  expect_same(a.acc, b.acc);
  EXPECT_EQ(bits(a.dot), bits(b.dot));
  EXPECT_EQ(bits(a.npu_sq), bits(b.npu_sq));
  EXPECT_EQ(bits(a.bench_sq), bits(b.bench_sq));
  EXPECT_EQ(bits(a.diff_sq), bits(b.diff_sq));
}

TEST(ProbeReduction, LaneFormGivesTheCpuBackendsBits) {
  std::mt19937_64 rng(7);
  CpuBackend cpu(3);
  for (const DType dtype :
       {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16, DType::kFloat8E4M3FN,
        DType::kInt32, DType::kInt64, DType::kUInt8, DType::kBool, DType::kComplex64}) {
    const std::size_t size = dtype_storage_size(dtype);
    for (const int64_t n : {1, 15, 16, 31, 32, 33, 47, 48, 64, 1000, 10001, 40013}) {
      std::vector<uint8_t> npu(static_cast<std::size_t>(n) * size), bench;
      for (uint8_t& b : npu) b = static_cast<uint8_t>(rng());
      if (dtype == DType::kFloat || dtype == DType::kDouble || dtype == DType::kComplex64) {
        for (int64_t i = 0; i < n; ++i) {  // values of a sane range, a few specials
          const double v = std::uniform_real_distribution<double>(-3, 3)(rng);
          const int pick = static_cast<int>(rng() % 50);
          const double w = pick == 0 ? NAN : pick == 1 ? INFINITY : v;
          if (dtype == DType::kDouble) {
            std::memcpy(&npu[i * 8], &w, 8);
          } else {
            const auto f = static_cast<float>(w);
            std::memcpy(&npu[i * size], &f, 4);
          }
        }
      }
      if (dtype == DType::kBool)
        for (uint8_t& b : npu) b &= 1;
      bench = npu;
      for (int64_t i = 0; i < n; ++i) {  // a third perturbed, some zeros, the rest equal
        const int pick = static_cast<int>(rng() % 6);
        uint8_t* e = &bench[static_cast<std::size_t>(i) * size];
        if (pick == 0) std::memset(e, 0, size);
        if (pick == 1) e[0] ^= dtype == DType::kBool ? 1 : 0x10;
      }
      ProbePairJob job;
      job.npu = {npu.data(), dtype};
      job.bench = {bench.data(), dtype};
      job.count = n;
      job.relative_f32 = dtype == DType::kFloat || dtype == DType::kFloat16 ||
                         dtype == DType::kBFloat16 || dtype == DType::kFloat8E4M3FN;
      for (const BlasDotKernel kernel : {BlasDotKernel::kSkylakeX, BlasDotKernel::kHaswell}) {
        for (const int threads : {1, 2, 3, 7}) {
          ProbeSums by_lanes;
          int64_t begin = 0;
          for (const int64_t count : blas_dot_parts(n, threads)) {
            std::vector<ProbeSums> lanes(static_cast<std::size_t>(blas_lanes(kernel)));
            for (int l = 0; l < blas_lanes(kernel); ++l)
              lanes[static_cast<std::size_t>(l)] = reduce_probe_lane(job, begin, count, kernel, l);
            by_lanes.add_part(finish_probe_part(job, begin, count, kernel, lanes.data()));
            begin += count;
          }
          std::vector<ProbeSums> got;
          cpu.reduce_probe({job, job}, {kernel, threads}, got);
          ASSERT_EQ(got.size(), 2u);
          const std::string what = std::string(dtype_wire_name(dtype)) + " n=" + std::to_string(n) +
                                   " threads=" + std::to_string(threads);
          expect_bits(got[0], by_lanes, what);
          expect_bits(got[1], by_lanes, what);
        }
      }
    }
  }
}

}  // namespace
}  // namespace dumpcmp
