// --quantiles: exact quantiles and decade histograms of |x - y| and the relative error, checked
// against a plain sort of the same float32 errors, on both paths (sorted small tensors, radix
// selection of large ones) and any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "quantiles/error_quantiles.hpp"

namespace dumpcmp {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TensorPairJob job_of(const std::vector<float>& x, const std::vector<float>& y) {
  TensorPairJob job;
  job.x = {reinterpret_cast<const uint8_t*>(x.data()), DType::kFloat,
           static_cast<int64_t>(x.size())};
  job.y = {reinterpret_cast<const uint8_t*>(y.data()), DType::kFloat,
           static_cast<int64_t>(y.size())};
  return job;
}

// The errors as the first pass computes them, in float32 (math/accumulator.hpp).
float error_of(ErrorMeasure m, float x, float y) {
  if (m == ErrorMeasure::kAbsolute) return std::fabs(x - y);
  if (!(static_cast<double>(std::fabs(y)) > 2.220446049250313e-16)) return 0.0f;
  return std::fabs(x / y - 1.0f);
}

// The reference: every error sorted, numpy's linear method, bins counted one by one.
ErrorDistribution reference(ErrorMeasure m, const std::vector<float>& x,
                            const std::vector<float>& y) {
  ErrorDistribution d;
  std::vector<float> e;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float v = error_of(m, x[i], y[i]);
    int bin = 0;
    if (std::isnan(v)) {
      bin = kHistogramBins - 1;
    } else if (v > 0) {
      bin = 1;
      for (float edge : kHistogramEdges) bin += v >= edge;
    }
    ++d.histogram[bin];
    if (!std::isnan(v)) e.push_back(v);
  }
  std::sort(e.begin(), e.end());
  d.count = static_cast<int64_t>(e.size());
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    if (e.empty()) {
      d.quantile[q] = std::nan("");
      continue;
    }
    const double index = static_cast<double>(e.size() - 1) * kQuantileLevels[q];
    const auto lo = static_cast<std::size_t>(std::floor(index));
    const std::size_t hi = std::min(lo + 1, e.size() - 1);
    d.quantile[q] = interpolate_quantile(e[lo], e[hi], index - std::floor(index));
  }
  return d;
}

void expect_same(const ErrorDistribution& got, const ErrorDistribution& want, const char* what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.histogram, want.histogram);
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    if (std::isnan(want.quantile[q])) {
      EXPECT_TRUE(std::isnan(got.quantile[q])) << q;
    } else {
      EXPECT_EQ(got.quantile[q], want.quantile[q]) << q;  // exact: order statistics
    }
  }
}

void expect_matches_reference(const std::vector<float>& x, const std::vector<float>& y) {
  for (int threads : {1, 2}) {
    std::vector<PairQuantiles> got;
    compute_error_quantiles({job_of(x, y)}, got, threads);
    ASSERT_EQ(got.size(), 1u);
    expect_same(got[0].of(ErrorMeasure::kAbsolute), reference(ErrorMeasure::kAbsolute, x, y),
                "absolute");
    expect_same(got[0].of(ErrorMeasure::kRelative), reference(ErrorMeasure::kRelative, x, y),
                "relative");
  }
}

// Values with ties, zeros, denormals, huge and special values, and a close golden.
std::pair<std::vector<float>, std::vector<float>> random_pair(std::size_t n, unsigned seed,
                                                              bool specials) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, 99);
  std::vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = normal(rng);
    x[i] = y[i] * (1.0f + 1e-3f * normal(rng));
    const int p = pick(rng);
    if (p < 5) x[i] = y[i];                       // zero error
    if (p == 5) x[i] = std::round(x[i] * 4) / 4;  // ties
    if (p == 6) y[i] = 1e-40f;                    // a denormal golden
    if (specials && p == 7) x[i] = kNaN;          // NaN error
    if (specials && p == 8) x[i] = kInf;          // inf error
    if (specials && p == 9) y[i] = 0.0f;          // relative term 0
    if (p == 10) x[i] = 3e38f, y[i] = -3e38f;     // overflows to inf
  }
  return {x, y};
}

TEST(Quantiles, SmallTensorsMatchASort) {
  for (std::size_t n : {1u, 2u, 3u, 10u, 1000u, 65536u}) {
    SCOPED_TRACE(n);
    const auto [x, y] = random_pair(n, static_cast<unsigned>(n), true);
    expect_matches_reference(x, y);
  }
}

TEST(Quantiles, LargeTensorsSelectedByCountingMatchASort) {
  for (std::size_t n : {65537u, 300001u}) {
    SCOPED_TRACE(n);
    const auto [x, y] = random_pair(n, static_cast<unsigned>(n), true);
    expect_matches_reference(x, y);
    const auto [fx, fy] = random_pair(n, 7u, false);  // every error finite
    expect_matches_reference(fx, fy);
  }
}

TEST(Quantiles, ManyEqualErrorsAndAllNaN) {
  const std::vector<float> ones(100000, 1.0f), twos(100000, 2.0f), nans(100000, kNaN);
  expect_matches_reference(ones, twos);  // one value: every quantile is it
  expect_matches_reference(ones, ones);  // all zero
  std::vector<PairQuantiles> got;
  compute_error_quantiles({job_of(nans, ones), job_of({nans.begin(), nans.begin() + 5}, twos)}, got,
                          2);
  for (const PairQuantiles& q : got) {
    EXPECT_EQ(q.of(ErrorMeasure::kAbsolute).count, 0);
    EXPECT_TRUE(std::isnan(q.of(ErrorMeasure::kAbsolute).quantile[0]));
  }
  EXPECT_EQ(got[0].of(ErrorMeasure::kAbsolute).histogram[kHistogramBins - 1], 100000);
}

TEST(Quantiles, BatchesGiveEachJobItsOwn) {
  const auto [x1, y1] = random_pair(500, 1u, true);
  const auto [x2, y2] = random_pair(70000, 2u, true);
  std::vector<PairQuantiles> batch, alone;
  compute_error_quantiles({job_of(x1, y1), job_of(x2, y2)}, batch, 2);
  compute_error_quantiles({job_of(x2, y2)}, alone, 1);
  ASSERT_EQ(batch.size(), 2u);
  expect_same(batch[1].of(ErrorMeasure::kRelative), alone[0].of(ErrorMeasure::kRelative), "job 2");
  expect_same(batch[0].of(ErrorMeasure::kAbsolute), reference(ErrorMeasure::kAbsolute, x1, y1),
              "job 1");
}

TEST(Quantiles, HalfPrecisionInputsAreDecodedFirst) {
  // 1.0 and 1.5 in binary16 against float32 goldens.
  const std::vector<uint16_t> x(70000, 0x3C00);
  std::vector<uint16_t> x2 = x;
  x2[3] = 0x3E00;
  const std::vector<float> y(70000, 1.0f);
  TensorPairJob job = job_of(y, y);
  job.x = {reinterpret_cast<const uint8_t*>(x2.data()), DType::kFloat16, 70000};
  std::vector<PairQuantiles> got;
  compute_error_quantiles({job}, got, 2);
  const ErrorDistribution& d = got[0].of(ErrorMeasure::kAbsolute);
  EXPECT_EQ(d.count, 70000);
  EXPECT_EQ(d.quantile[2], 0.0);  // one element in 70,000 is above P99.9
  EXPECT_EQ(d.histogram[0], 69999);
  EXPECT_EQ(d.histogram[8], 1);  // 0.5 lies in [0.1, 1)
  EXPECT_EQ(d.histogram[9], 0);
}

TEST(Quantiles, InterpolationFollowsNumpyAndKeepsInfinities) {
  EXPECT_EQ(interpolate_quantile(1.0, 3.0, 0.25), 1.5);
  EXPECT_EQ(interpolate_quantile(1.0, 3.0, 0.75), 2.5);  // from b, as numpy's _lerp
  EXPECT_EQ(interpolate_quantile(1.0, kInf, 0.0), 1.0);  // numpy: nan (inf * 0)
  EXPECT_EQ(interpolate_quantile(1.0, kInf, 0.5), kInf);
  EXPECT_EQ(interpolate_quantile(kInf, kInf, 0.5), kInf);
}

}  // namespace
}  // namespace dumpcmp
