#pragma once
// How a batch of tensor pairs is moved to the device: packed into a staging buffer of at most
// `budget` bytes per pass, big tensors split at chunk boundaries, every range cut into chunks.
// Pure host logic, shared by the cuda and thrust-omp backends and unit-tested without a GPU.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backend/backend.hpp"

namespace dumpcmp::device {

// Bytes holding elements [begin, begin + count) of a source (uint1 packs 8 per byte; ranges start
// at multiples of 8 elements, so they start on a byte).
uint64_t element_byte_offset(DType dtype, int64_t element);
uint64_t element_bytes(DType dtype, int64_t count);

// Elements [begin, begin + count) of one job, staged at x_offset / y_offset in the pass's buffer.
struct StagedRange {
  int job = 0;
  int64_t begin = 0, count = 0;
  uint64_t x_offset = 0, y_offset = 0;  // in the staging buffer
  int64_t first_chunk = 0;              // global index of this range's first chunk
};

struct StagingPass {
  std::vector<StagedRange> ranges;
  uint64_t bytes = 0;  // staging buffer size this pass needs
};

struct StagingPlan {
  std::vector<StagingPass> passes;
  std::vector<int64_t> job_first_chunk;  // per job, then the total: chunks of job j are contiguous
  std::vector<char> job_split;           // per job: spans more than one pass
};

// Elements of a side that must be staged: with a layout map the whole source (the map gathers from
// anywhere in it), else the compared elements.
int64_t staged_elements(const ElementSource& side);
bool has_layout(const TensorPairJob& job);

// Staging bytes [offset, offset + bytes) of a pass come from `source` (a mapped dump).
struct StagedSegment {
  uint64_t offset = 0;
  const uint8_t* source = nullptr;
  uint64_t bytes = 0;
};

// The pass's segments, x and y of every range in staging order (sorted, never overlapping). A side
// with a layout map gathers from anywhere, so its whole source is staged.
std::vector<StagedSegment> staged_segments(const std::vector<TensorPairJob>& jobs,
                                           const StagingPass& pass);

// Staging bytes one upload block holds at most (the cuda backend's pinned buffers are this size).
inline constexpr uint64_t kUploadBlockBytes = uint64_t{2} << 20;

// A run of at most `block_bytes` staging bytes that one host thread fills and one copy sends: many
// small tensors travel in few large transfers, and one large tensor is read by every host thread.
struct UploadBlock {
  uint64_t offset = 0, bytes = 0;  // staging bytes [offset, offset + bytes)
  std::size_t first_segment = 0;   // the segments that overlap it: [first_segment, end_segment)
  std::size_t end_segment = 0;
};

// Cuts sorted, non-overlapping segments into blocks that cover every segment byte exactly once.
std::vector<UploadBlock> cut_upload_blocks(const std::vector<StagedSegment>& segments,
                                           uint64_t block_bytes);

// Calls copy(staging_offset, source, bytes) for each non-empty part of the block's segments.
template <typename Copy>
void for_each_block_part(const UploadBlock& block, const std::vector<StagedSegment>& segments,
                         Copy copy) {
  const uint64_t end = block.offset + block.bytes;
  for (std::size_t i = block.first_segment; i < block.end_segment; ++i) {
    const StagedSegment& s = segments[i];
    const uint64_t lo = s.offset > block.offset ? s.offset : block.offset;
    const uint64_t hi = s.offset + s.bytes < end ? s.offset + s.bytes : end;
    if (lo < hi) copy(lo, s.source + (lo - s.offset), hi - lo);
  }
}

// `chunk_elements` must be a multiple of 8. Every job gets at least one chunk (empty jobs too).
// A job with a layout map is staged whole in one range, whatever the budget.
StagingPlan plan_staging(const std::vector<TensorPairJob>& jobs, uint64_t budget_bytes,
                         int64_t chunk_elements);

}  // namespace dumpcmp::device
