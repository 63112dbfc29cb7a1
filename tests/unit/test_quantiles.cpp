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
#include "quantiles/float64_quantiles.hpp"

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

// The reference: every error sorted, numpy's linear method, bins counted one by one (the float32
// edges compared as float64, which orders a float32 error as float32 does).
ErrorDistribution reference_of(const std::vector<double>& errors) {
  ErrorDistribution d;
  std::vector<double> e;
  for (const double v : errors) {
    int bin = 0;
    if (std::isnan(v)) {
      bin = kHistogramBins - 1;
    } else if (v > 0) {
      bin = 1;
      for (float edge : kHistogramEdges) bin += v >= static_cast<double>(edge);
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

ErrorDistribution reference(ErrorMeasure m, const std::vector<float>& x,
                            const std::vector<float>& y) {
  std::vector<double> errors;
  for (std::size_t i = 0; i < x.size(); ++i) errors.push_back(error_of(m, x[i], y[i]));
  return reference_of(errors);
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

namespace dumpcmp {
namespace {

// float64 errors (msprobe's tensor mode) against a sort of every error.
void expect_float64_reference(const std::vector<double>& a, const std::vector<double>& r) {
  const Float64ErrorFill fill = [&](int64_t begin, int64_t n, double* absolute, double* relative) {
    std::copy(a.begin() + begin, a.begin() + begin + n, absolute);
    std::copy(r.begin() + begin, r.begin() + begin + n, relative);
  };
  // Collected after the first pass (the default), after some counting passes, or never.
  for (const int64_t collect_limit : {kFloat64CollectLimit, int64_t{3000}, int64_t{0}}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(collect_limit);
      const PairQuantiles got =
          float64_error_quantiles(static_cast<int64_t>(a.size()), fill, threads, collect_limit);
      expect_same(got.of(ErrorMeasure::kAbsolute), reference_of(a), "absolute");
      expect_same(got.of(ErrorMeasure::kRelative), reference_of(r), "relative");
    }
  }
}

// Errors spread over many binades, with ties, zeros of both signs, denormals, inf and NaN, some
// sharing their top 16 or 32 bits so that every pass of the selection decides.
std::vector<double> random_errors(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> pick(0, 99);
  std::vector<double> e(n);
  for (std::size_t i = 0; i < n; ++i) {
    e[i] = std::fabs(normal(rng)) * std::pow(10.0, pick(rng) % 12 - 9);
    const int p = pick(rng);
    if (p < 5) e[i] = 0.0;
    if (p == 5) e[i] = -0.0;
    if (p == 6) e[i] = 0.25;                                           // ties
    if (p == 7) e[i] = 1.0 + static_cast<double>(rng() % 64) * 1e-15;  // shared top 32 bits
    if (p == 8) e[i] = 5e-324;                                         // a denormal
    if (p == 9) e[i] = std::numeric_limits<double>::infinity();
    if (p == 10) e[i] = std::nan("");
  }
  return e;
}

TEST(Float64Quantiles, SmallAndLargeMatchASort) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{65536},
                              std::size_t{65537}, std::size_t{300000}}) {
    SCOPED_TRACE(n);
    expect_float64_reference(random_errors(n, 11), random_errors(n, 12));
  }
}

TEST(Float64Quantiles, AllEqualAllNaNAndNearlyEqual) {
  const std::size_t n = 100000;
  std::vector<double> nan(n, std::nan("")), ones(n, 1.0), close(n);
  for (std::size_t i = 0; i < n; ++i)
    close[i] = std::nextafter(1.0, 2.0 + static_cast<double>(i % 3));
  expect_float64_reference(ones, nan);
  expect_float64_reference(close, ones);
}

TEST(Float64Quantiles, HistogramEdgesAreTheFloat32Edges) {
  EXPECT_EQ(float64_histogram_bin(0.0), 0);
  EXPECT_EQ(float64_histogram_bin(-0.0), 0);
  EXPECT_EQ(float64_histogram_bin(1e-300), 1);
  EXPECT_EQ(float64_histogram_bin(static_cast<double>(1e-7f)), 2);
  EXPECT_EQ(float64_histogram_bin(std::nextafter(static_cast<double>(1e-7f), 0.0)), 1);
  EXPECT_EQ(float64_histogram_bin(0.5), 8);
  EXPECT_EQ(float64_histogram_bin(1.0), 9);
  EXPECT_EQ(float64_histogram_bin(std::numeric_limits<double>::infinity()), 9);
  EXPECT_EQ(float64_histogram_bin(std::nan("")), kHistogramBins - 1);
}

}  // namespace
}  // namespace dumpcmp
