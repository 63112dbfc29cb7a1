// --quantiles counted by a device backend (kernels/quantile_counter.inl) against the host's
// counting (quantiles/error_quantiles.cpp): the same counts, histograms and quantiles, bit for
// bit, for every dtype, special values, layout maps, pairs split across staging passes (left to
// the host), and tensors already on the device (the resident reducer).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "parity_backend.hpp"
#include "parity_data.hpp"
#include "quantiles/error_quantiles.hpp"

namespace dumpcmp {
namespace {

// The golden's values, and the compared side's: most elements equal (zero errors, counted by the
// histogram alone), the rest off by a relative 1e-3 or so; `special` as values() gives it.
std::pair<std::vector<float>, std::vector<float>> pair_values(int64_t n, int special,
                                                              uint32_t seed) {
  std::vector<float> y = values(n, 0, seed), x = values(n, special, seed);
  std::mt19937 rng(seed + 1);
  std::uniform_real_distribution<float> noise(-1e-3f, 1e-3f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (special != 6 && i % 3 != 0) x[i] = x[i] * (1.0f + noise(rng));
  }
  if (special == 6) y = x;  // all zero on both sides
  return {x, y};
}

void expect_same_quantiles(const std::vector<TensorPairJob>& jobs,
                           const std::vector<PairQuantiles>& got,
                           const std::vector<PairQuantiles>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    SCOPED_TRACE("job " + std::to_string(j) + " n=" + std::to_string(jobs[j].x.count) +
                 " dtype=" + std::string(dtype_wire_name(jobs[j].x.dtype)));
    for (int m = 0; m < kErrorMeasures; ++m) {
      const ErrorDistribution &g = got[j].measure[m], &w = want[j].measure[m];
      EXPECT_EQ(g.count, w.count);
      EXPECT_EQ(g.histogram, w.histogram);
      for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
        const bool same = std::memcmp(&g.quantile[q], &w.quantile[q], sizeof(double)) == 0 ||
                          (std::isnan(g.quantile[q]) && std::isnan(w.quantile[q]));
        EXPECT_TRUE(same) << "measure " << m << " level " << q << ": " << g.quantile[q] << " vs "
                          << w.quantile[q];
      }
    }
  }
}

// The device counts what it can, the host the rest: the host's own distributions. Returns how
// many pairs the device counted.
int expect_quantile_parity(Backend& device, const std::vector<TensorPairJob>& jobs) {
  std::vector<PairQuantiles> want, got;
  compute_error_quantiles(jobs, want, 2);
  std::vector<PairStats> stats;
  std::vector<char> counted;
  device.reduce_counting_quantiles(jobs, stats, got, counted);
  EXPECT_EQ(stats.size(), jobs.size());
  EXPECT_EQ(counted.size(), jobs.size());
  int on_device = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (!counted[j]) continue;
    ++on_device;
    EXPECT_GT(jobs[j].x.count, kInMemoryQuantileLimit) << "job " << j;
  }
  compute_error_quantiles(jobs, got, 2, counted);
  expect_same_quantiles(jobs, got, want);
  return on_device;
}

class QuantileParity : public ::testing::TestWithParam<uint64_t> {};  // the staging budget

// Every dtype, sizes around the in-memory limit, special values (pair_values); `tensors` holds
// their bytes.
std::vector<TensorPairJob> special_value_jobs(std::vector<Tensor>& tensors) {
  const std::vector<int64_t> sizes = {0, 1000, kInMemoryQuantileLimit, kInMemoryQuantileLimit + 1,
                                      200003};
  const std::vector<DType> dtypes = {
      DType::kFloat, DType::kFloat16, DType::kBFloat16,     DType::kDouble,     DType::kInt32,
      DType::kInt8,  DType::kBool,    DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kHiFloat8};
  tensors.reserve(sizes.size() * dtypes.size() * 7 * 2);
  std::vector<TensorPairJob> jobs;
  uint32_t seed = 11;
  for (int64_t n : sizes) {
    for (DType dt : dtypes) {
      for (int special = 0; special <= 6; ++special) {
        if (n == 200003 && special % 3 != 0) continue;
        const auto [x, y] = pair_values(n, special, seed++);
        tensors.push_back(make_tensor(dt, x));
        tensors.push_back(make_tensor(dt, y));
        TensorPairJob job;
        job.x = tensors[tensors.size() - 2].source();
        job.y = tensors.back().source();
        job.both_bool = dt == DType::kBool;
        jobs.push_back(job);
      }
    }
  }
  return jobs;
}

int radix_selected(const std::vector<TensorPairJob>& jobs) {
  return static_cast<int>(std::count_if(jobs.begin(), jobs.end(), [](const TensorPairJob& j) {
    return j.x.count > kInMemoryQuantileLimit;
  }));
}

TEST_P(QuantileParity, DtypesSizesAndSpecialValues) {
  const auto device = device_backend(GetParam());
  if (!device) GTEST_SKIP() << "no usable device";
  std::vector<Tensor> tensors;
  const std::vector<TensorPairJob> jobs = special_value_jobs(tensors);
  const int large = radix_selected(jobs);
  const int on_device = expect_quantile_parity(*device, jobs);
  // With a budget that holds every pair, the device counts every radix-selected one; with a small
  // one, the pairs split across passes are left to the host, the rest still counted.
  if (GetParam() >= (1ull << 30)) {
    EXPECT_EQ(on_device, large);
  } else {
    EXPECT_GT(on_device, 0);
    EXPECT_LT(on_device, large);
  }
}

TEST_P(QuantileParity, JobsWithLayoutMaps) {
  const auto device = device_backend(GetParam());
  if (!device) GTEST_SKIP() << "no usable device";
  const std::vector<std::array<int64_t, 4>> shapes = {{2, 33, 40, 40}, {1, 16, 64, 65}};
  std::vector<LayoutMap> maps;
  maps.reserve(shapes.size());
  std::vector<Tensor> tensors;
  std::vector<TensorPairJob> jobs;
  uint32_t seed = 301;
  for (const auto& s : shapes) {
    maps.push_back(nc1hwc0_to_nchw(s[0], s[1], s[2], s[3]));
    const LayoutMap& map = maps.back();
    const int64_t padded = nc1hwc0_elements(s[0], s[1], s[2], s[3]);
    for (DType dt : {DType::kFloat16, DType::kFloat}) {
      for (int special = 0; special <= 1; ++special) {
        const auto [x, y] = pair_values(padded, special, seed++);
        tensors.push_back(make_tensor(dt, x));
        tensors.push_back(
            make_tensor(DType::kFloat, std::vector<float>(y.begin(), y.begin() + map.count)));
        // special 1: the map on the golden side.
        jobs.push_back(layout_job(tensors[tensors.size() - 2], tensors.back(), map, special == 1));
      }
    }
  }
  const int on_device = expect_quantile_parity(*device, jobs);
  if (GetParam() >= (1ull << 30)) {
    EXPECT_EQ(on_device, static_cast<int>(jobs.size()));
  }
}

INSTANTIATE_TEST_SUITE_P(Budgets, QuantileParity, ::testing::Values(1ull << 30, 300ull << 10));

// Tensors already in device memory (host memory for thrust-omp): the resident reducer's
// distributions, large pairs counted there and small ones copied back, are the host's.
TEST(ResidentQuantiles, InPlaceGiveTheHostsDistributions) {
  std::string why;
  const auto resident = resident_reducer(why);
  if (!resident) GTEST_SKIP() << "no usable device: " << why;
  std::vector<Tensor> tensors;
  const std::vector<TensorPairJob> jobs = special_value_jobs(tensors);
  std::vector<DeviceCopy> copies;
  const std::vector<TensorPairJob> in_place = device_copies(jobs, copies);
  std::vector<PairQuantiles> want, got;
  compute_error_quantiles(jobs, want, 2);
  std::vector<PairStats> stats;
  resident->reduce(in_place, nullptr, stats, &got);
  EXPECT_EQ(stats.size(), jobs.size());
  expect_same_quantiles(jobs, got, want);
  // The buffers are reused: a second call on fewer jobs, a large pair first, gives the same.
  std::vector<TensorPairJob> some, some_in_place;
  std::vector<PairQuantiles> some_want;
  for (const std::size_t j : {jobs.size() - 1, std::size_t{1}, std::size_t{71}}) {
    some.push_back(jobs[j]);
    some_in_place.push_back(in_place[j]);
    some_want.push_back(want[j]);
  }
  ASSERT_GT(some[0].x.count, kInMemoryQuantileLimit);
  ASSERT_EQ(some[1].x.count, 0);
  ASSERT_EQ(some[2].x.count, 1000);
  resident->reduce(some_in_place, nullptr, stats, &got);
  expect_same_quantiles(some, got, some_want);
}

// A pair the device cannot count in uint32 is refused, naming the limit, before anything is read.
TEST(ResidentQuantiles, RefusesPairsBeyondUint32) {
  std::string why;
  const auto resident = resident_reducer(why);
  if (!resident) GTEST_SKIP() << "no usable device: " << why;
  const DeviceCopy bytes(std::vector<uint8_t>(16).data(), 16);
  TensorPairJob job;
  job.x = {bytes.data(), DType::kInt8, int64_t{1} << 32};
  job.y = job.x;
  std::vector<PairStats> stats;
  std::vector<PairQuantiles> quantiles;
  try {
    resident->reduce({job}, nullptr, stats, &quantiles);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("4294967295 elements"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dumpcmp
