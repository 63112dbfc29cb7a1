// The device staging plan: budgets respected, splits on chunk boundaries, every element staged
// once.
#include <gtest/gtest.h>

#include "staging_plan.hpp"

namespace dumpcmp::device {
namespace {

TensorPairJob job_of(DType x, DType y, int64_t n) {
  TensorPairJob j;
  j.x = {nullptr, x, n};
  j.y = {nullptr, y, n};
  return j;
}

TEST(StagingPlan, SmallJobsShareOnePass) {
  const std::vector<TensorPairJob> jobs = {job_of(DType::kFloat, DType::kFloat, 10),
                                           job_of(DType::kFloat16, DType::kFloat, 0),
                                           job_of(DType::kUInt1, DType::kUInt1, 17)};
  const StagingPlan plan = plan_staging(jobs, 1 << 20, 1024);
  ASSERT_EQ(plan.passes.size(), 1u);
  ASSERT_EQ(plan.passes[0].ranges.size(), 3u);
  EXPECT_EQ(plan.job_first_chunk, (std::vector<int64_t>{0, 1, 2, 3}));
  for (const StagedRange& r : plan.passes[0].ranges) {
    EXPECT_EQ(r.x_offset % 256, 0u);
    EXPECT_EQ(r.y_offset % 256, 0u);
  }
  EXPECT_EQ(element_bytes(DType::kUInt1, 17), 3u);
}

TEST(StagingPlan, BigJobSplitsOnChunkBoundariesWithinBudget) {
  const int64_t chunk = 1024, n = 10 * chunk + 5;
  const std::vector<TensorPairJob> jobs = {job_of(DType::kFloat, DType::kFloat, 100),
                                           job_of(DType::kFloat, DType::kFloat16, n)};
  const uint64_t budget = 3 * (4 * chunk + 2 * chunk) + 1024;  // about three chunks per pass
  const StagingPlan plan = plan_staging(jobs, budget, chunk);
  EXPECT_GT(plan.passes.size(), 3u);
  EXPECT_TRUE(plan.job_split[1]);
  EXPECT_FALSE(plan.job_split[0]);
  int64_t covered = 0;
  int64_t chunks = 0;
  for (const StagingPass& pass : plan.passes) {
    EXPECT_LE(pass.bytes, budget);
    for (const StagedRange& r : pass.ranges) {
      if (r.job != 1) continue;
      EXPECT_EQ(r.begin, covered);
      EXPECT_EQ(r.begin % chunk, 0);
      EXPECT_EQ(r.first_chunk, plan.job_first_chunk[1] + chunks);
      covered += r.count;
      chunks += (r.count + chunk - 1) / chunk;
    }
  }
  EXPECT_EQ(covered, n);
  EXPECT_EQ(plan.job_first_chunk[2] - plan.job_first_chunk[1], 11);
}

TEST(StagingPlan, ChunkLargerThanBudgetStillProgresses) {
  const StagingPlan plan = plan_staging({job_of(DType::kDouble, DType::kDouble, 5000)}, 100, 1024);
  EXPECT_EQ(plan.passes.size(), 5u);
  EXPECT_EQ(plan.job_first_chunk.back(), 5);
}

}  // namespace
}  // namespace dumpcmp::device
