// Tensor pairs whose payloads already live where the device computes (CUDA device memory; host
// memory on Thrust's OpenMP system): no staging and no upload. Every job's chunks are lifted in
// place by the same kernels as a staged pass (the base address is the lowest of the payloads,
// each task's offsets are its sides' distances from it), on the caller's stream; the per-chunk
// accumulators come back and are merged on the host in the cpu backend's pairwise order, then
// the KLD pass runs for the jobs whose first pass allows it. --quantiles are counted where the
// tensors lie too (quantile_counter.inl). Included by exactly one translation unit per device
// system, after its glue.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "chunk_kernels.hpp"
#include "chunk_launch.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "math/accumulator.hpp"
#include "math/chunk_plan.hpp"
#include "math/pair_stats.hpp"
#include "quantile_counter.inl"
#include "quantiles/error_quantiles.hpp"
#include "staging_plan.hpp"

namespace dumpcmp::device {

template <typename Glue>
class ResidentReduction {
 public:
  // stats[i] receives jobs[i]'s result and, with `quantiles`, quantiles[i] its --quantiles
  // distributions (the small pairs' selected on up to `host_threads` host threads, 0: all);
  // returns once `stream` has finished the work. The jobs' sides must not have layout maps, and
  // each payload must be aligned to its element size.
  void reduce(const std::vector<TensorPairJob>& jobs, typename Glue::Stream& stream,
              std::vector<PairStats>& stats, std::vector<PairQuantiles>* quantiles = nullptr,
              int host_threads = 0) {
    stats.assign(jobs.size(), PairStats{});
    if (quantiles) quantiles->assign(jobs.size(), PairQuantiles{});
    if (jobs.empty()) return;
    if (quantiles) refuse_uncountable(jobs);
    base_ = lowest_payload(jobs);
    first_chunk_.assign(jobs.size() + 1, 0);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      first_chunk_[j + 1] = first_chunk_[j] + std::max<int64_t>(1, chunks_of(jobs[j].x.count));
    }
    const auto total = static_cast<std::size_t>(first_chunk_.back());
    pair_partials_.assign(total, PairAccumulator{});
    bool_partials_.assign(total, BoolAccumulator{});
    kld_partials_.assign(total, KldAccumulator{});

    const auto pair_job = [&](std::size_t j) { return !jobs[j].both_bool; };
    const auto bool_job = [&](std::size_t j) { return jobs[j].both_bool; };
    run<LiftPairTask>(tasks_for(jobs, pair_job, nullptr), stream, pair_buffers_, pair_partials_);
    run<LiftBoolTask>(tasks_for(jobs, bool_job, nullptr), stream, bool_buffers_, bool_partials_);
    std::vector<char> kld(jobs.size(), 0);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const int64_t first = first_chunk_[j], n = first_chunk_[j + 1] - first;
      merge_pairwise(pair_partials_.data() + first, n);
      merge_pairwise(bool_partials_.data() + first, n);
      stats[j].both_bool = jobs[j].both_bool;
      stats[j].pair = pair_partials_[static_cast<std::size_t>(first)];
      stats[j].boolean = bool_partials_[static_cast<std::size_t>(first)];
      kld[j] = wants_kld_pass(jobs[j], stats[j]);
    }
    if (quantiles) count_quantiles(jobs, stream, *quantiles, host_threads);
    const auto kld_job = [&](std::size_t j) { return kld[j] != 0; };
    if (std::none_of(kld.begin(), kld.end(), [](char k) { return k != 0; })) return;
    run<LiftKldTask>(tasks_for(jobs, kld_job, &stats), stream, kld_buffers_, kld_partials_);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (!kld[j]) continue;
      const int64_t first = first_chunk_[j];
      merge_pairwise(kld_partials_.data() + first, first_chunk_[j + 1] - first);
      stats[j].kld = kld_partials_[static_cast<std::size_t>(first)];
    }
  }

 private:
  static int64_t chunks_of(int64_t count) { return (count + kChunkElements - 1) / kChunkElements; }

  // The device counts a pair's keys in uint32 (quantile_counting.hpp); the host copies only the
  // small pairs.
  static void refuse_uncountable(const std::vector<TensorPairJob>& jobs) {
    for (const TensorPairJob& job : jobs) {
      if (job.x.count > kMostDeviceCounted) {
        throw Error(ExitCode::kInput, "quantiles of tensors on a device are counted up to " +
                                          std::to_string(kMostDeviceCounted) + " elements (got " +
                                          std::to_string(job.x.count) + "): pass host arrays");
      }
    }
  }

  // --quantiles: the radix-selected pairs counted where they lie, on `stream`; the smaller ones'
  // elements (at most kInMemoryQuantileLimit a side) copied to the host and selected there, as
  // the host selects them.
  void count_quantiles(const std::vector<TensorPairJob>& jobs, typename Glue::Stream& stream,
                       std::vector<PairQuantiles>& out, int host_threads) {
    std::vector<char> counted(jobs.size(), 0);
    const auto large = [&](std::size_t j) { return counted_on_device(jobs[j].x.count); };
    std::vector<typename QuantileCounter<Glue>::Pair> pairs;
    int64_t first_task = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (!large(j)) continue;
      const int64_t tasks = first_chunk_[j + 1] - first_chunk_[j];
      pairs.push_back({static_cast<int>(j), first_task, tasks});
      first_task += tasks;
    }
    if (!pairs.empty()) {
      counter_.count(base_, nullptr, tasks_for(jobs, large, nullptr).tasks, pairs, stream, out,
                     counted);
    }
    if (pairs.size() == jobs.size()) return;
    std::vector<TensorPairJob> on_host = jobs;
    std::size_t bytes = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (!counted[j]) bytes += host_bytes(jobs[j].x) + host_bytes(jobs[j].y);
    }
    host_copy_.resize(bytes / sizeof(uint64_t));
    auto* at = reinterpret_cast<uint8_t*>(host_copy_.data());
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (counted[j]) continue;
      for (ElementSource* side : {&on_host[j].x, &on_host[j].y}) {
        Glue::copy_to_host(at, side->data, element_bytes(side->dtype, side->count), stream);
        side->data = at;
        at += host_bytes(*side);
      }
    }
    Glue::synchronize(stream);
    compute_error_quantiles(on_host, out, host_threads, counted);
  }

  // A side's room in the host copy: whole words, so every side stays aligned.
  static std::size_t host_bytes(const ElementSource& side) {
    return (element_bytes(side.dtype, side.count) + sizeof(uint64_t) - 1) / sizeof(uint64_t) *
           sizeof(uint64_t);
  }

  // As addresses: the sides are separate allocations.
  static int64_t distance(const uint8_t* from, const uint8_t* to) {
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(to) -
                                reinterpret_cast<uintptr_t>(from));
  }

  static const uint8_t* lowest_payload(const std::vector<TensorPairJob>& jobs) {
    const uint8_t* lowest = jobs.front().x.data;
    for (const TensorPairJob& job : jobs) {
      for (const ElementSource* side : {&job.x, &job.y}) {
        if (side->layout != nullptr) {
          throw Error(ExitCode::kInternal,
                      "tensors on the device are compared as they lie: no layout map");
        }
        const auto size = static_cast<uintptr_t>(dtype_storage_size(side->dtype));
        if (size > 1 && reinterpret_cast<uintptr_t>(side->data) % size != 0) {
          throw Error(ExitCode::kInput,
                      "a tensor on the device does not start at a multiple of its element size");
        }
        if (reinterpret_cast<uintptr_t>(side->data) < reinterpret_cast<uintptr_t>(lowest))
          lowest = side->data;
      }
    }
    return lowest;
  }

  // The chunk tasks of the selected jobs in job order, with their chunks' global indexes; with
  // `first_pass`, the KLD scales from each job's first pass.
  template <typename Select>
  Launch tasks_for(const std::vector<TensorPairJob>& jobs, Select select,
                   const std::vector<PairStats>* first_pass) const {
    Launch l;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (!select(j)) continue;
      const TensorPairJob& job = jobs[j];
      ChunkTask t;
      t.x_offset = distance(base_, job.x.data);
      t.y_offset = distance(base_, job.y.data);
      t.x_dtype = job.x.dtype;
      t.y_dtype = job.y.dtype;
      if (first_pass != nullptr) {
        t.sx = kld_scale_x(job, (*first_pass)[j]);
        t.sy = kld_scale_y(job, (*first_pass)[j]);
      }
      int64_t id = first_chunk_[j];
      for (int64_t begin = 0; id < first_chunk_[j + 1]; begin += kChunkElements, ++id) {
        t.local_begin = begin;
        t.count = std::min(kChunkElements, job.x.count - begin);
        l.tasks.push_back(t);
        l.chunk_ids.push_back(id);
      }
    }
    return l;
  }

  // A lift's tasks and accumulators on the device and its pinned copy back, kept between calls.
  template <typename Acc>
  struct Buffers {
    typename Glue::template DeviceBuffer<ChunkTask> tasks;
    typename Glue::template DeviceBuffer<Acc> out;
    typename Glue::template HostBuffer<Acc> back;
  };

  // Lifts the tasks, grouped by view kind, on `stream`, waits, and puts each accumulator in its
  // chunk's slot.
  template <typename Lift, typename Acc>
  void run(Launch l, typename Glue::Stream& stream, Buffers<Acc>& buffers,
           std::vector<Acc>& partials) {
    if (l.tasks.empty()) return;
    group_by_view_kind(l);
    const std::vector<ChunkTask>& tasks = l.tasks;
    const std::vector<int64_t>& ids = l.chunk_ids;
    const std::size_t n = tasks.size();
    buffers.tasks.reserve(n);
    buffers.out.reserve(n);
    buffers.back.reserve(n);
    Glue::copy_to_device(buffers.tasks.data(), tasks.data(), n * sizeof(ChunkTask), stream);
    Glue::run(stream, Lift{base_, buffers.tasks.data(), nullptr}, l.kinds, buffers.out.data());
    Glue::copy_to_host(buffers.back.data(), buffers.out.data(), n * sizeof(Acc), stream);
    Glue::synchronize(stream);
    for (std::size_t i = 0; i < n; ++i) {
      partials[static_cast<std::size_t>(ids[i])] = buffers.back.data()[i];
    }
  }

  const uint8_t* base_ = nullptr;
  std::vector<int64_t> first_chunk_;  // per job, then the total
  std::vector<PairAccumulator> pair_partials_;
  std::vector<BoolAccumulator> bool_partials_;
  std::vector<KldAccumulator> kld_partials_;
  Buffers<PairAccumulator> pair_buffers_;
  Buffers<BoolAccumulator> bool_buffers_;
  Buffers<KldAccumulator> kld_buffers_;
  QuantileCounter<Glue> counter_;
  std::vector<uint64_t> host_copy_;  // the small pairs' elements, for --quantiles
};

}  // namespace dumpcmp::device
