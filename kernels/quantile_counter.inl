// --quantiles' radix selection (math/radix_select.hpp) of pairs a device pass holds whole, counted
// where they lie: pass 1 on the device, the wanted buckets chosen on the host from its counts,
// pass 2 on the device, the order statistics found on the host. Used by thrust_reducer.inl (staged
// pairs) and resident_reduction.inl (pairs already on the device, on the caller's stream: hence
// the Glue's buffers, which launch nothing on another stream).
#pragma once
#include <algorithm>
#include <array>
#include <vector>

#include "core/phase_trace.hpp"
#include "quantile_counting.hpp"

namespace dumpcmp::device {

template <typename Glue>
class QuantileCounter {
 public:
  // A pair and its chunk tasks [first_task, first_task + tasks) among the counted ones.
  struct Pair {
    int job = 0;
    int64_t first_task = 0, tasks = 0;
  };

  // Counts `pairs`, whose tasks read `staging` (and `layouts`), on `stream`; returns when done,
  // with out[job] set and counted[job] marked.
  void count(const uint8_t* staging, const LayoutMap* layouts, const std::vector<ChunkTask>& tasks,
             const std::vector<Pair>& pairs, typename Glue::Stream& stream,
             std::vector<PairQuantiles>& out, std::vector<char>& counted) {
    if (pairs.empty()) return;
    const TraceScope trace("device: counting quantiles");
    device_tasks_.reserve(tasks.size());
    Glue::copy_to_device(device_tasks_.data(), tasks.data(), tasks.size() * sizeof(ChunkTask),
                         stream);
    QuantileLaunch q;
    q.staging = staging;
    q.layouts = layouts;
    q.tasks = device_tasks_.data();
    for (std::size_t e = 0; e < kHistogramEdges.size(); ++e)
      q.edges[e] = magnitude_key(kHistogramEdges[e]);
    for (std::size_t at = 0; at < pairs.size(); at += kPairsPerLaunch) {
      const std::size_t end = std::min(pairs.size(), at + kPairsPerLaunch);
      count_group(q, std::vector<Pair>(pairs.begin() + at, pairs.begin() + end), stream, out,
                  counted);
    }
  }

 private:
  // Pairs counted per launch: bounds the counts to about 8 MiB (pass 1) and 100 MiB (pass 2).
  static constexpr std::size_t kPairsPerLaunch = 32;

  void count_group(QuantileLaunch q, const std::vector<Pair>& pairs, typename Glue::Stream& stream,
                   std::vector<PairQuantiles>& out, std::vector<char>& counted) {
    std::vector<QuantileSegment> segments;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const Pair& p = pairs[k];
      for (int64_t t = p.first_task; t < p.first_task + p.tasks; t += kSegmentTasks) {
        segments.push_back(QuantileSegment{
            t, static_cast<int32_t>(std::min<int64_t>(kSegmentTasks, p.first_task + p.tasks - t)),
            static_cast<int32_t>(k)});
      }
    }
    segments_.reserve(segments.size());
    Glue::copy_to_device(segments_.data(), segments.data(),
                         segments.size() * sizeof(QuantileSegment), stream);
    q.segments = segments_.data();
    const auto segment_count = static_cast<int64_t>(segments.size());

    // Pass 1, and the buckets each pair's pass 2 counts.
    const std::size_t top_size = 2 * pairs.size() * static_cast<std::size_t>(kTopCounts);
    top_.reserve(top_size);
    Glue::fill_zero(top_.data(), top_size * sizeof(uint32_t), stream);
    q.top = top_.data();
    Glue::count_top(stream, q, segment_count);
    top_host_.resize(top_size);
    Glue::copy_to_host(top_host_.data(), top_.data(), top_size * sizeof(uint32_t), stream);
    Glue::synchronize(stream);
    std::vector<RadixSelect> select(pairs.size());
    std::vector<int64_t> low_offset(2 * pairs.size() + 1, 0);
    slot_host_.resize(2 * pairs.size() * kTopBuckets);
    int64_t most_low = 0;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      std::array<ErrorHistogram, kErrorMeasures> histogram{};
      std::array<std::vector<int64_t>, kErrorMeasures> top;
      for (int m = 0; m < kErrorMeasures; ++m) {
        const uint32_t* counts = top_host_.data() + (2 * k + m) * kTopCounts;
        top[m].assign(counts, counts + kTopBuckets);
        std::copy(counts + kTopBuckets, counts + kTopCounts, histogram[m].begin());
      }
      select[k].choose(histogram, {top[0].data(), top[1].data()});
      for (int m = 0; m < kErrorMeasures; ++m) {
        const std::size_t i = 2 * k + m;
        std::copy(select[k].slot_of(m).begin(), select[k].slot_of(m).end(),
                  slot_host_.begin() + i * kTopBuckets);
        const auto size = static_cast<int64_t>(select[k].slots(m) * kLowBuckets);
        low_offset[i + 1] = low_offset[i] + size;
        most_low = std::max(most_low, size);
      }
    }

    // Pass 2, and the order statistics.
    const auto low_size = static_cast<std::size_t>(low_offset.back());
    low_host_.resize(low_size);
    if (low_size > 0) {
      slot_of_.reserve(slot_host_.size());
      low_offset_.reserve(low_offset.size());
      low_.reserve(low_size);
      Glue::copy_to_device(slot_of_.data(), slot_host_.data(), slot_host_.size(), stream);
      Glue::copy_to_device(low_offset_.data(), low_offset.data(),
                           low_offset.size() * sizeof(int64_t), stream);
      Glue::fill_zero(low_.data(), low_size * sizeof(uint32_t), stream);
      q.slot_of = slot_of_.data();
      q.low_offset = low_offset_.data();
      q.low = low_.data();
      Glue::count_low(stream, q, segment_count, most_low);
      Glue::copy_to_host(low_host_.data(), low_.data(), low_size * sizeof(uint32_t), stream);
      Glue::synchronize(stream);
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      std::array<std::vector<int64_t>, kErrorMeasures> low;
      for (int m = 0; m < kErrorMeasures; ++m) {
        const std::size_t i = 2 * k + m;
        low[m].assign(low_host_.begin() + low_offset[i], low_host_.begin() + low_offset[i + 1]);
      }
      const auto job = static_cast<std::size_t>(pairs[k].job);
      out[job] = select[k].finish({low[0].data(), low[1].data()});
      counted[job] = 1;
    }
  }

  template <typename T>
  using DeviceBuffer = typename Glue::template DeviceBuffer<T>;
  DeviceBuffer<ChunkTask> device_tasks_;
  DeviceBuffer<QuantileSegment> segments_;
  DeviceBuffer<uint32_t> top_, low_;
  DeviceBuffer<uint8_t> slot_of_;
  DeviceBuffer<int64_t> low_offset_;
  std::vector<uint32_t> top_host_, low_host_;
  std::vector<uint8_t> slot_host_;
};

}  // namespace dumpcmp::device
