// The device staging plan: budgets respected, splits on chunk boundaries, every element staged
// once.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

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

// Replays the blocks' copies into a buffer: every segment byte must arrive exactly once, in place.
void expect_blocks_cover(const std::vector<StagedSegment>& segments, uint64_t block_bytes) {
  const std::vector<UploadBlock> blocks = cut_upload_blocks(segments, block_bytes);
  const uint64_t end = segments.empty() ? 0 : segments.back().offset + segments.back().bytes;
  std::vector<int> writes(end, 0);
  std::vector<uint8_t> staged(end, 0);
  for (const UploadBlock& b : blocks) {
    EXPECT_LE(b.bytes, block_bytes);
    EXPECT_GT(b.bytes, 0u);
    for_each_block_part(b, segments, [&](uint64_t at, const uint8_t* from, uint64_t bytes) {
      EXPECT_GE(at, b.offset);
      EXPECT_LE(at + bytes, b.offset + b.bytes);
      for (uint64_t k = 0; k < bytes; ++k) {
        ++writes[at + k];
        staged[at + k] = from[k];
      }
    });
  }
  for (const StagedSegment& s : segments) {
    for (uint64_t k = 0; k < s.bytes; ++k) {
      ASSERT_EQ(writes[s.offset + k], 1) << "byte " << s.offset + k;
      ASSERT_EQ(staged[s.offset + k], s.source[k]);
    }
  }
}

TEST(UploadBlocks, SmallSegmentsShareABlockAndLargeOnesSpanSeveral) {
  std::vector<uint8_t> source(10000);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<uint8_t>(i * 7 + 3);
  // Small segments with alignment gaps, an empty one, then one larger than three blocks.
  const std::vector<StagedSegment> segments = {{0, source.data(), 10},
                                               {256, source.data() + 10, 100},
                                               {512, source.data() + 200, 0},
                                               {512, source.data() + 300, 256},
                                               {1024, source.data() + 1000, 3500}};
  expect_blocks_cover(segments, 1024);
  const std::vector<UploadBlock> blocks = cut_upload_blocks(segments, 1024);
  EXPECT_EQ(blocks.size(), 5u);  // the small ones in one block, the large one in four
  EXPECT_EQ(blocks[0].offset, 0u);
  EXPECT_EQ(blocks[0].end_segment, 4u);
  expect_blocks_cover(segments, 1);
  expect_blocks_cover(segments, 1 << 20);
  EXPECT_EQ(cut_upload_blocks(segments, 1 << 20).size(), 1u);
}

TEST(UploadBlocks, SegmentsOfAPlannedPass) {
  std::vector<float> a(5000, 1.0f), b(5000, 2.0f);
  std::vector<TensorPairJob> jobs = {job_of(DType::kFloat, DType::kFloat, 5000),
                                     job_of(DType::kFloat, DType::kFloat, 3)};
  jobs[0].x.data = jobs[1].x.data = reinterpret_cast<const uint8_t*>(a.data());
  jobs[0].y.data = jobs[1].y.data = reinterpret_cast<const uint8_t*>(b.data());
  const StagingPlan plan = plan_staging(jobs, 1 << 20, 1024);
  const std::vector<StagedSegment> segments = staged_segments(jobs, plan.passes[0]);
  ASSERT_EQ(segments.size(), 4u);
  EXPECT_EQ(segments[1].offset, plan.passes[0].ranges[0].y_offset);
  EXPECT_EQ(segments[1].bytes, 5000u * 4);
  EXPECT_EQ(segments[3].bytes, 3u * 4);
  expect_blocks_cover(segments, 4096);
}

}  // namespace
}  // namespace dumpcmp::device
