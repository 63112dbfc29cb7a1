#pragma once
// How a batch of tensor pairs is moved to the device: packed into a staging buffer of at most
// `budget` bytes per pass, big tensors split at chunk boundaries, every range cut into chunks.
// Pure host logic, shared by the cuda and thrust-omp backends and unit-tested without a GPU.
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

// `chunk_elements` must be a multiple of 8. Every job gets at least one chunk (empty jobs too).
// A job with a layout map is staged whole in one range, whatever the budget.
StagingPlan plan_staging(const std::vector<TensorPairJob>& jobs, uint64_t budget_bytes,
                         int64_t chunk_elements);

}  // namespace dumpcmp::device
