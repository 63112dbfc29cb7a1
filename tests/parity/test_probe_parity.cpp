// msprobe's real-data reduction (Backend::reduce_probe) on a device backend against the cpu
// backend: every field bit-identical, for every dtype msprobe compares, pairs larger than one
// OpenBLAS part, several OpenBLAS thread counts and both kernels, through a budget that stages a
// few pairs at a time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "parity_backend.hpp"

namespace dumpcmp {
namespace {

uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

// n elements of dtype: random bits (every NaN, inf and subnormal of the narrow floats), values of
// a sane range with a few specials for float32 and float64.
std::vector<uint8_t> random_side(DType dtype, int64_t n, std::mt19937_64& rng) {
  const std::size_t size = dtype_storage_size(dtype);
  std::vector<uint8_t> out(static_cast<std::size_t>(n) * size);
  for (uint8_t& b : out) b = static_cast<uint8_t>(rng());
  if (dtype == DType::kBool)
    for (uint8_t& b : out) b &= 1;
  if (dtype != DType::kFloat && dtype != DType::kDouble) return out;
  for (int64_t i = 0; i < n; ++i) {
    const int pick = static_cast<int>(rng() % 64);
    const double v = pick == 0   ? NAN
                     : pick == 1 ? -INFINITY
                                 : std::uniform_real_distribution<double>(-4, 4)(rng);
    if (dtype == DType::kDouble) {
      std::memcpy(&out[static_cast<std::size_t>(i) * 8], &v, 8);
    } else {
      const auto f = static_cast<float>(v);
      std::memcpy(&out[static_cast<std::size_t>(i) * 4], &f, 4);
    }
  }
  return out;
}

// Pairs of every dtype msprobe compares and of sizes on both sides of OpenBLAS's cuts, their
// bytes kept in `keep`.
std::vector<ProbePairJob> probe_jobs(std::vector<std::vector<uint8_t>>& keep) {
  std::mt19937_64 rng(11);
  const DType dtypes[] = {DType::kFloat,    DType::kDouble,       DType::kFloat16,
                          DType::kBFloat16, DType::kFloat8E4M3FN, DType::kFloat8E5M2,
                          DType::kInt8,     DType::kUInt16,       DType::kInt64,
                          DType::kBool,     DType::kComplex128};
  keep.reserve(2 * std::size(dtypes) * 6 + 2);  // the jobs point into it
  std::vector<ProbePairJob> jobs;
  for (const DType dtype : dtypes) {
    for (const int64_t n : {1, 17, 48, 9999, 10001, 70003}) {
      keep.push_back(random_side(dtype, n, rng));
      std::vector<uint8_t> bench = keep.back();
      const std::size_t size = dtype_storage_size(dtype);
      for (int64_t i = 0; i < n; i += 3) bench[static_cast<std::size_t>(i) * size] ^= 0x01;
      for (int64_t i = 1; i < n; i += 7)
        std::memset(&bench[static_cast<std::size_t>(i) * size], 0, size);
      keep.push_back(std::move(bench));
      ProbePairJob job;
      job.npu = {keep[keep.size() - 2].data(), dtype};
      job.bench = {keep.back().data(), dtype};
      job.count = n;
      job.relative_f32 = dtype == DType::kFloat || dtype == DType::kFloat16 ||
                         dtype == DType::kBFloat16 || dtype == DType::kFloat8E4M3FN ||
                         dtype == DType::kFloat8E5M2;
      jobs.push_back(job);
    }
  }
  // Float32 npu against a float16 bench: mixed dtypes in one pair.
  keep.push_back(random_side(DType::kFloat, 20000, rng));
  keep.push_back(random_side(DType::kFloat16, 20000, rng));
  jobs.push_back({{keep[keep.size() - 2].data(), DType::kFloat},
                  {keep.back().data(), DType::kFloat16},
                  20000,
                  true});
  return jobs;
}

void expect_same_sums(const std::vector<ProbeSums>& got, const std::vector<ProbeSums>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t j = 0; j < want.size(); ++j) {
    SCOPED_TRACE("job " + std::to_string(j));
    const ProbeAccumulator &a = got[j].acc, &b = want[j].acc;
    EXPECT_EQ(a.n, b.n);
    EXPECT_EQ(a.unmatched_special, b.unmatched_special);
    EXPECT_EQ(bits(a.max_abs), bits(b.max_abs));
    EXPECT_EQ(bits(a.max_relative), bits(b.max_relative));
    EXPECT_EQ(a.relative_nan, b.relative_nan);
    EXPECT_EQ(a.below_thousandth, b.below_thousandth);
    EXPECT_EQ(a.below_five_thousandths, b.below_five_thousandths);
    EXPECT_EQ(bits(got[j].dot), bits(want[j].dot));
    EXPECT_EQ(bits(got[j].npu_sq), bits(want[j].npu_sq));
    EXPECT_EQ(bits(got[j].bench_sq), bits(want[j].bench_sq));
    EXPECT_EQ(bits(got[j].diff_sq), bits(want[j].diff_sq));
  }
}

TEST(ProbeParity, EveryDtypeOrderAndBudget) {
  DeviceOptions options;
  options.memory_budget = 256 << 10;  // a few pairs per staging
  options.threads = 3;
  const std::unique_ptr<Backend> device = device_backend(options);
  if (!device) GTEST_SKIP() << "no usable device";
  CpuBackend cpu(2);
  std::vector<std::vector<uint8_t>> keep;
  const std::vector<ProbePairJob> jobs = probe_jobs(keep);
  for (const BlasDotKernel kernel : {BlasDotKernel::kSkylakeX, BlasDotKernel::kHaswell}) {
    for (const int threads : {1, 4, 64}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      std::vector<ProbeSums> want, got;
      cpu.reduce_probe(jobs, {kernel, threads}, want);
      device->reduce_probe(jobs, {kernel, threads}, got);
      expect_same_sums(got, want);
    }
  }
}

// A run compared as it runs (probe_live): the bench sides already where the device computes, the
// NPU sides in host memory, uploaded by the resident reducer; the cpu backend's sums.
TEST(ProbeParity, ResidentBenchAgainstHostNpu) {
  std::string why;
  const auto resident = resident_reducer(why);
  if (!resident) GTEST_SKIP() << "no usable device: " << why;
  CpuBackend cpu(2);
  std::vector<std::vector<uint8_t>> keep;
  const std::vector<ProbePairJob> jobs = probe_jobs(keep);
  std::vector<DeviceCopy> copies;
  copies.reserve(jobs.size());
  std::vector<ProbePairJob> in_place = jobs;
  for (ProbePairJob& job : in_place) {
    copies.emplace_back(job.bench.data,
                        static_cast<std::size_t>(job.count) * dtype_storage_size(job.bench.dtype));
    job.bench.data = copies.back().data();
  }
  for (const BlasDotKernel kernel : {BlasDotKernel::kSkylakeX, BlasDotKernel::kHaswell}) {
    for (const int threads : {1, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      std::vector<ProbeSums> want, got;
      cpu.reduce_probe(jobs, {kernel, threads}, want);
      resident->reduce_probe(in_place, {kernel, threads}, nullptr, got);
      expect_same_sums(got, want);
    }
  }
  // The buffers are reused: one job alone gives the same.
  std::vector<ProbeSums> want, got;
  cpu.reduce_probe({jobs[7]}, {BlasDotKernel::kHaswell, 2}, want);
  resident->reduce_probe({in_place[7]}, {BlasDotKernel::kHaswell, 2}, nullptr, got);
  expect_same_sums(got, want);
}

}  // namespace
}  // namespace dumpcmp
