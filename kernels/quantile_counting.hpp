#pragma once
// --quantiles' two counting passes (math/radix_select.hpp) over the large pairs of a staged pass,
// the parts both device systems share: the work items, the counts' layout, each element's key and
// what each pass counts of it. How the counts are gathered (shared-memory blocks on CUDA, one
// array per thread on OpenMP) is each glue's own.
#include <cstdint>

#include "chunk_kernels.hpp"
#include "math/error_keys.hpp"
#include "math/radix_select.hpp"

namespace dumpcmp::device {

// Consecutive chunk tasks of one pair, counted by one CUDA block or OpenMP thread per measure;
// `pair` is the pair's index among the launch's.
struct QuantileSegment {
  int64_t first_task = 0;
  int32_t tasks = 0;
  int32_t pair = 0;
};
inline constexpr int kSegmentTasks = 64;  // 1 Mi elements of 16 Ki-element chunks

// Pass 1's counts of a pair and measure: kTopBuckets top-bit counts, then the histogram.
inline constexpr int64_t kTopCounts = static_cast<int64_t>(kTopBuckets) + kHistogramBins;

// What a counting launch reads and writes, device pointers. Counts are uint32: the pairs counted
// on a device have fewer than 2^32 elements.
struct QuantileLaunch {
  const uint8_t* staging = nullptr;
  const LayoutMap* layouts = nullptr;
  const ChunkTask* tasks = nullptr;
  const QuantileSegment* segments = nullptr;
  uint32_t edges[kHistogramEdges.size()] = {};  // the histogram's edges as keys
  uint32_t* top = nullptr;                      // pass 1: kTopCounts per pair and measure
  const uint8_t* slot_of = nullptr;             // pass 2: kTopBuckets per pair and measure
  const int64_t* low_offset = nullptr;          // pass 2: where each pair and measure's slots
  uint32_t* low = nullptr;                      //   of kLowBuckets counts begin in `low`

  DUMPCMP_HD uint32_t* top_of(int pair, int m) const { return top + (2 * pair + m) * kTopCounts; }
};

// The pairs a device counts: those radix-selected (math/radix_select.hpp) whose counts fit uint32.
inline constexpr int64_t kMostDeviceCounted = int64_t{UINT32_MAX};
inline bool counted_on_device(int64_t elements) {
  return elements > kInMemoryQuantileLimit && elements <= kMostDeviceCounted;
}

// Pass 1 counts a key in the top bucket key >> 16 unless it is zero or NaN (math/radix_select.hpp).
DUMPCMP_HD inline bool counted_on_top(uint32_t key) { return key - 1u < kInfKey; }

// Pass 2 counts a non-zero key of a wanted bucket at this index of its pair and measure's low
// counts, or returns -1.
DUMPCMP_HD inline int64_t low_index(const uint8_t* slot_of, uint32_t key) {
  const uint8_t slot = slot_of[key >> 16];
  if (slot == kNoSlot || key == 0) return -1;
  return static_cast<int64_t>(slot) * static_cast<int64_t>(kLowBuckets) + (key & 0xFFFFu);
}

// Calls f(key) with measure m's key of elements begin, begin + step, ... of task t.
template <typename F>
DUMPCMP_HD void for_each_error_key(const QuantileLaunch& q, const ChunkTask& t, int m,
                                   int64_t begin, int64_t step, F f) {
  with_views(q.staging, q.layouts, t, [&](const auto& x, const auto& y) {
    for (int64_t i = begin; i < t.count; i += step) {
      const float a = x[i], b = y[i];
      f(m == 0 ? abs_error_key(a, b) : relative_error_key(a, b));
    }
    return 0;
  });
}

}  // namespace dumpcmp::device
