#pragma once
// CUDA-only: --quantiles' counting passes (quantile_counting.hpp). Block (s, m) counts segment
// s's keys of measure m. Pass 1 gathers a block's top-bucket counts and histogram in shared
// memory and adds the non-zero ones to the pair's; pass 2's few wanted buckets have 2^16 counts
// each, too many for shared memory, and are counted in device memory. Each count is aggregated
// over the warp's threads with the same index first, since errors crowd into few buckets.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "quantile_counting.hpp"

namespace dumpcmp::device {

inline constexpr int kTopThreads = 1024;  // one block an SM: its counts take 128 KiB
inline constexpr int kLowThreads = 256;
inline constexpr std::size_t kTopSharedBytes = kTopBuckets * sizeof(uint32_t);

// Adds the calling threads' ones at counts[index] (index < 0: not counted), one atomic a group of
// the warp's threads that share an index.
__device__ inline void add_aggregated(uint32_t* counts, int64_t index) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group active = cg::coalesced_threads();
  const cg::coalesced_group same = cg::labeled_partition(active, index);
  if (index >= 0 && same.thread_rank() == 0) atomicAdd(counts + index, same.size());
}

__global__ void __launch_bounds__(kTopThreads) count_top_keys(QuantileLaunch q) {
  extern __shared__ uint32_t top[];  // kTopBuckets
  __shared__ uint32_t bins[kHistogramBins];
  const QuantileSegment s = q.segments[blockIdx.x];
  const int m = static_cast<int>(blockIdx.y);
  for (unsigned i = threadIdx.x; i < kTopBuckets; i += blockDim.x) top[i] = 0;
  if (threadIdx.x < kHistogramBins) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int64_t t = s.first_task; t < s.first_task + s.tasks; ++t) {
    for_each_error_key(q, q.tasks[t], m, threadIdx.x, blockDim.x, [&](uint32_t key) {
      add_aggregated(bins, error_bin(key, q.edges, kHistogramEdges.size()));
      add_aggregated(top, counted_on_top(key) ? static_cast<int64_t>(key >> 16) : -1);
    });
  }
  __syncthreads();
  uint32_t* out = q.top_of(s.pair, m);
  for (unsigned i = threadIdx.x; i < kTopBuckets; i += blockDim.x) {
    if (top[i] != 0) atomicAdd(out + i, top[i]);
  }
  if (threadIdx.x < kHistogramBins && bins[threadIdx.x] != 0)
    atomicAdd(out + kTopBuckets + threadIdx.x, bins[threadIdx.x]);
}

__global__ void __launch_bounds__(kLowThreads) count_low_keys(QuantileLaunch q) {
  const QuantileSegment s = q.segments[blockIdx.x];
  const int m = static_cast<int>(blockIdx.y);
  const uint8_t* slot_of = q.slot_of + (2 * s.pair + m) * kTopBuckets;
  uint32_t* low = q.low + q.low_offset[2 * s.pair + m];
  for (int64_t t = s.first_task; t < s.first_task + s.tasks; ++t) {
    for_each_error_key(q, q.tasks[t], m, threadIdx.x, blockDim.x,
                       [&](uint32_t key) { add_aggregated(low, low_index(slot_of, key)); });
  }
}

}  // namespace dumpcmp::device
