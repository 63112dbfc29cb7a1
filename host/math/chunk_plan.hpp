#pragma once
// Cutting a batch of jobs into fixed-size chunks and merging their partials in a fixed pairwise
// order: shared by every backend so that chunking never changes a result.
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"

namespace dumpcmp {

// Elements per chunk (one partial accumulator) on every backend, cpu, thrust-omp and cuda alike:
// with equal chunks (and the same 8 lanes within each) their results are identical.
inline constexpr int64_t kChunkElements = 16384;

struct Chunk {
  int32_t job = 0;
  int64_t begin = 0;  // first element
  int64_t count = 0;
};

struct ChunkPlan {
  std::vector<Chunk> chunks;
  std::vector<int64_t> first_chunk;  // per job, index of its first chunk; size jobs + 1
};

// counts[j] elements of job j in chunks of chunk_elements (an empty job still gets one empty chunk,
// so every job has a partial to merge).
ChunkPlan make_chunk_plan(const std::vector<int64_t>& counts, int64_t chunk_elements);

// Merges partials[first, last) pairwise (stride 1, 2, 4, ...) into partials[first].
template <typename Acc>
void merge_pairwise(Acc* partials, int64_t count) {
  for (int64_t stride = 1; stride < count; stride *= 2) {
    for (int64_t i = 0; i + stride < count; i += 2 * stride)
      partials[i].merge(partials[i + stride]);
  }
}

}  // namespace dumpcmp
