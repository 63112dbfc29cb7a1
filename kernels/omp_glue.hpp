#pragma once
// The OpenMP device system's side of the reducer's glue: "device" memory is host memory, copies are
// memcpy and every step is synchronous, so the pipeline runs in the CUDA order without a GPU.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "chunk_launch.hpp"
#include "quantile_counting.hpp"
#include "staging_plan.hpp"

namespace dumpcmp::device {

struct OmpGlue {
  struct Stream {};

  template <typename T>
  class HostBuffer {
   public:
    void reserve(std::size_t n) {
      if (items_.size() < n) items_.resize(n);
    }
    T* data() { return items_.data(); }
    const T* data() const { return items_.data(); }

   private:
    std::vector<T> items_;
  };
  template <typename T>
  using DeviceBuffer = HostBuffer<T>;

  // A pass's upload: each block's parts are copied straight into the (host) device buffer, the
  // blocks spread over the host threads as on CUDA.
  struct Uploader {
    void reserve(int) {}
    void upload(uint8_t* device, const std::vector<StagedSegment>& segments,
                const std::vector<UploadBlock>& blocks, Stream&, int threads) {
      const auto count = static_cast<int64_t>(blocks.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads)
      for (int64_t i = 0; i < count; ++i) {
        for_each_block_part(blocks[static_cast<std::size_t>(i)], segments,
                            [&](uint64_t at, const uint8_t* from, uint64_t bytes) {
                              std::memcpy(device + at, from, bytes);
                            });
      }
    }
  };

  static void synchronize(Stream&) {}
  static void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream&) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream&) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static void fill_zero(void* dst, std::size_t bytes, Stream&) {
    if (bytes) std::memset(dst, 0, bytes);
  }
  // out[c] = lift(c) for every chunk task c.
  template <typename Lift, typename Acc>
  static void run(Stream&, const Lift& lift, int64_t chunks, Acc* out) {
    THRUST_NS_QUALIFIER::transform(
        THRUST_NS_QUALIFIER::device, THRUST_NS_QUALIFIER::counting_iterator<int64_t>(0),
        THRUST_NS_QUALIFIER::counting_iterator<int64_t>(chunks), out, lift);
  }
  // The same over tasks grouped by view kind: each kind's range in turn, as CUDA launches them.
  template <typename Lift, typename Acc>
  static void run(Stream&, const Lift& lift, const KindRanges& kinds, Acc* out) {
    for (int k = 0; k < kViewKinds; ++k) {
      THRUST_NS_QUALIFIER::transform(
          THRUST_NS_QUALIFIER::device,
          THRUST_NS_QUALIFIER::counting_iterator<int64_t>(kinds.begin[k]),
          THRUST_NS_QUALIFIER::counting_iterator<int64_t>(kinds.begin[k + 1]), out + kinds.begin[k],
          lift);
    }
  }

  // --quantiles' passes (quantile_counting.hpp): each segment and measure counted by one thread
  // into its own array, whose non-zero counts are then added to the pair's. `most_low`: the
  // largest low-count block of a pair and measure.
  static void count_top(Stream&, const QuantileLaunch& q, int64_t segments) {
    for_each_segment(
        q, segments, kTopCounts,
        [&](const QuantileSegment& s, int m) { return q.top_of(s.pair, m); },
        [&](const QuantileSegment&, int, uint32_t* counts, uint32_t key) {
          ++counts[kTopBuckets + error_bin(key, q.edges, kHistogramEdges.size())];
          if (counted_on_top(key)) ++counts[key >> 16];
        });
  }
  static void count_low(Stream&, const QuantileLaunch& q, int64_t segments, int64_t most_low) {
    for_each_segment(
        q, segments, most_low,
        [&](const QuantileSegment& s, int m) { return q.low + q.low_offset[2 * s.pair + m]; },
        [&](const QuantileSegment& s, int m, uint32_t* counts, uint32_t key) {
          const int64_t i = low_index(q.slot_of + (2 * s.pair + m) * kTopBuckets, key);
          if (i >= 0) ++counts[i];
        });
  }

 private:
  // Counts each segment and measure into a thread's array of `size` counts with count(segment,
  // measure, array, key), then adds its non-zero counts to out(segment, measure).
  template <typename Out, typename Count>
  static void for_each_segment(const QuantileLaunch& q, int64_t segments, int64_t size, Out out,
                               Count count) {
#pragma omp parallel
    {
      std::vector<uint32_t> local(static_cast<std::size_t>(size));
#pragma omp for schedule(dynamic)
      for (int64_t w = 0; w < 2 * segments; ++w) {
        const QuantileSegment& s = q.segments[w / 2];
        const int m = static_cast<int>(w % 2);
        std::fill(local.begin(), local.end(), 0u);
        for (int64_t t = s.first_task; t < s.first_task + s.tasks; ++t) {
          for_each_error_key(q, q.tasks[t], m, 0, 1,
                             [&](uint32_t key) { count(s, m, local.data(), key); });
        }
        // Only the counts of the segment's own pair and measure are non-zero.
        uint32_t* to = out(s, m);
        for (int64_t i = 0; i < size; ++i) {
          if (local[static_cast<std::size_t>(i)] == 0) continue;
#pragma omp atomic
          to[i] += local[static_cast<std::size_t>(i)];
        }
      }
    }
  }
};

}  // namespace dumpcmp::device
