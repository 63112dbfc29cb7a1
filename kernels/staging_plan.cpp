#include "staging_plan.hpp"

#include <algorithm>
#include <utility>

namespace dumpcmp::device {
namespace {

constexpr uint64_t kAlign = 256;  // device allocations and copies like aligned starts

uint64_t align_up(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

int64_t chunks_for(int64_t count, int64_t chunk_elements) {
  return count == 0 ? 1 : (count + chunk_elements - 1) / chunk_elements;
}

}  // namespace

uint64_t element_byte_offset(DType dtype, int64_t element) {
  if (dtype == DType::kUInt1) return static_cast<uint64_t>(element / 8);
  return static_cast<uint64_t>(element) * dtype_storage_size(dtype);
}

uint64_t element_bytes(DType dtype, int64_t count) {
  if (dtype == DType::kUInt1) return static_cast<uint64_t>((count + 7) / 8);
  return static_cast<uint64_t>(count) * dtype_storage_size(dtype);
}

int64_t staged_elements(const ElementSource& side) {
  return side.layout != nullptr && side.source_count > 0 ? side.source_count : side.count;
}

bool has_layout(const TensorPairJob& job) {
  return job.x.layout != nullptr || job.y.layout != nullptr;
}

std::vector<StagedSegment> staged_segments(const std::vector<TensorPairJob>& jobs,
                                           const StagingPass& pass) {
  std::vector<StagedSegment> segments;
  for (const StagedRange& r : pass.ranges) {
    const TensorPairJob& job = jobs[static_cast<std::size_t>(r.job)];
    for (const auto& [side, offset] :
         {std::pair{&job.x, r.x_offset}, std::pair{&job.y, r.y_offset}}) {
      const bool whole = side->layout != nullptr;
      const uint8_t* from =
          whole ? side->data : side->data + element_byte_offset(side->dtype, r.begin);
      segments.push_back(
          {offset, from, element_bytes(side->dtype, whole ? staged_elements(*side) : r.count)});
    }
  }
  return segments;
}

std::vector<UploadBlock> cut_upload_blocks(const std::vector<StagedSegment>& segments,
                                           uint64_t block_bytes) {
  std::vector<UploadBlock> blocks;
  uint64_t covered = 0;  // staging bytes before this are in a block
  std::size_t s = 0;
  while (s < segments.size()) {
    if (segments[s].offset + segments[s].bytes <= covered) {  // done, or empty
      ++s;
      continue;
    }
    UploadBlock b;
    b.offset = std::max(covered, segments[s].offset);
    b.first_segment = s;
    const uint64_t limit = b.offset + block_bytes;
    uint64_t end = b.offset;
    std::size_t t = s;
    for (; t < segments.size() && segments[t].offset < limit; ++t)
      end = std::max(end, std::min(segments[t].offset + segments[t].bytes, limit));
    b.end_segment = t;
    b.bytes = end - b.offset;
    blocks.push_back(b);
    covered = end;
  }
  return blocks;
}

StagingPlan plan_staging(const std::vector<TensorPairJob>& jobs, uint64_t budget_bytes,
                         int64_t chunk_elements) {
  StagingPlan plan;
  plan.job_split.assign(jobs.size(), 0);
  plan.passes.emplace_back();
  int64_t next_chunk = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const TensorPairJob& job = jobs[j];
    plan.job_first_chunk.push_back(next_chunk);
    // Bytes per chunk of this job on both sides, so a split lands on a chunk boundary.
    const uint64_t chunk_bytes = align_up(element_bytes(job.x.dtype, chunk_elements)) +
                                 align_up(element_bytes(job.y.dtype, chunk_elements));
    int64_t begin = 0;
    int passes_used = 0;
    do {
      StagingPass* pass = &plan.passes.back();
      uint64_t room = budget_bytes > pass->bytes ? budget_bytes - pass->bytes : 0;
      if (room < chunk_bytes && !pass->ranges.empty()) {  // start a new pass rather than a sliver
        plan.passes.emplace_back();
        pass = &plan.passes.back();
        room = budget_bytes;
      }
      // At least one chunk per range, even when a single chunk exceeds the budget.
      const int64_t max_chunks = std::max<int64_t>(1, static_cast<int64_t>(room / chunk_bytes));
      const bool whole = has_layout(job);
      const int64_t count =
          whole ? job.x.count : std::min(job.x.count - begin, max_chunks * chunk_elements);
      StagedRange range;
      range.job = static_cast<int>(j);
      range.begin = begin;
      range.count = count;
      range.x_offset = pass->bytes;
      range.y_offset = range.x_offset +
                       align_up(element_bytes(job.x.dtype, whole ? staged_elements(job.x) : count));
      pass->bytes = range.y_offset +
                    align_up(element_bytes(job.y.dtype, whole ? staged_elements(job.y) : count));
      range.first_chunk = next_chunk;
      next_chunk += chunks_for(count, chunk_elements);
      pass->ranges.push_back(range);
      begin += count;
      ++passes_used;
    } while (begin < job.x.count);
    plan.job_split[j] = passes_used > 1;
  }
  plan.job_first_chunk.push_back(next_chunk);
  return plan;
}

}  // namespace dumpcmp::device
