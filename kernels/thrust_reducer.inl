// The device backends' reduction, written once on Thrust and compiled twice: by nvcc for CUDA
// (cuda_backend.cu) and by the host compiler for Thrust's OpenMP device system
// (thrust_omp_backend.cpp). Included by exactly one translation unit per device system; each wraps
// Thrust in its own namespace (THRUST_CUB_WRAPPED_NAMESPACE), so the two never collide.
//
// Per batch: plan staging passes (staging_plan), and per pass upload the payloads block by block
// (each block read from the mapped files by a host thread and sent in one copy), lift every chunk
// with the chunk kernels (chunk_kernels.hpp: decode and layout gather inside the load), bring back
// only the per-chunk accumulators, and merge them per job on the host in the same fixed pairwise
// order as the CPU backend. KLD runs on the still-staged data for jobs that fit in one pass, and in
// a second sweep for jobs split across passes.
#include <thrust/device_vector.h>

#include <algorithm>
#include <vector>

#include "chunk_kernels.hpp"
#include "chunk_launch.hpp"
#include "core/phase_trace.hpp"
#include "math/accumulator.hpp"
#include "math/chunk_plan.hpp"
#include "math/element_source.hpp"
#include "math/pair_stats.hpp"
#include "quantile_counter.inl"
#include "staging_plan.hpp"

namespace dumpcmp::device {

// Thrust lives in a per-system wrapper namespace (THRUST_CUB_WRAPPED_NAMESPACE).
namespace thrust = THRUST_NS_QUALIFIER;

// Reduces batches on one device system. Glue supplies what differs between CUDA and the OpenMP
// system: streams, the uploader (pinned blocks on CUDA), async copies and the kernel launches (see
// cuda_glue.cuh and omp_glue.hpp). With two slots the passes pipeline: while slot A's pass is
// reduced on its stream, the host reads the next pass from the mapped files and uploads it into
// slot B on B's stream. On OpenMP the same steps run in the same order, synchronously, which is
// how this pipeline is tested without a GPU.
template <typename Glue>
class ThrustReducer {
 public:
  explicit ThrustReducer(const DeviceOptions& options) : options_(options) {}

  // Makes what the first pass would otherwise wait for (the uploader's pinned blocks).
  void prepare() { uploader_.reserve(host_threads()); }

  // With `quantiles` (and `counted`): also --quantiles of the large pairs a pass holds whole,
  // counted while the pass is staged (quantile_counter.inl); the rest are left to the host.
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats,
              std::vector<PairQuantiles>* quantiles = nullptr,
              std::vector<char>* counted = nullptr) {
    stats.assign(jobs.size(), PairStats{});
    if (quantiles) {
      quantiles->assign(jobs.size(), PairQuantiles{});
      counted->assign(jobs.size(), 0);
    }
    const StagingPlan plan = plan_staging(jobs, options_.memory_budget, options_.chunk_elements);
    const auto total_chunks = static_cast<std::size_t>(plan.job_first_chunk.back());
    pair_partials_.assign(total_chunks, PairAccumulator{});
    bool_partials_.assign(total_chunks, BoolAccumulator{});
    kld_partials_.assign(total_chunks, KldAccumulator{});
    merged_.assign(jobs.size(), 0);
    kld_ready_.assign(jobs.size(), 0);
    scale_x_.assign(jobs.size(), KldScale{});
    scale_y_.assign(jobs.size(), KldScale{});

    const auto not_split = [&](int j) { return !plan.job_split[static_cast<std::size_t>(j)]; };
    const std::size_t passes = plan.passes.size();
    if (passes > 0) {
      stage(jobs, plan.passes[0], slots_[0]);
      launch_first(jobs, plan.passes[0], slots_[0]);
    }
    for (std::size_t p = 0; p < passes; ++p) {
      Slot& slot = slots_[p % 2];
      Slot& next = slots_[(p + 1) % 2];
      if (p + 1 < passes) stage(jobs, plan.passes[p + 1], next);  // host work overlaps the device
      finish_first_pass(slot);
      finish_jobs(jobs, plan, plan.passes[p], stats);
      launch_kld(kld_tasks(jobs, plan.passes[p], slot, not_split), slot);
      if (p + 1 < passes) launch_first(jobs, plan.passes[p + 1], next);
      finish_kld(slot);
      // The slot's pass stays staged until the next iteration stages into it.
      if (quantiles) count_quantiles(jobs, plan, plan.passes[p], slot, *quantiles, *counted);
    }
    // Jobs split across passes know their KLD scale only now: stage their ranges again.
    std::vector<char> deferred(jobs.size(), 0);
    for (std::size_t j = 0; j < jobs.size(); ++j) deferred[j] = plan.job_split[j] && kld_ready_[j];
    const auto is_deferred = [&](int j) { return deferred[static_cast<std::size_t>(j)] != 0; };
    for (const StagingPass& pass : plan.passes) {
      bool used = false;
      for (const StagedRange& r : pass.ranges) used = used || is_deferred(r.job);
      if (!used) continue;
      Slot& slot = slots_[0];
      stage(jobs, pass, slot);
      launch_kld(kld_tasks(jobs, pass, slot, is_deferred), slot);
      finish_kld(slot);
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (!kld_ready_[j]) continue;
      const int64_t first = plan.job_first_chunk[j];
      merge_pairwise(kld_partials_.data() + first, plan.job_first_chunk[j + 1] - first);
      stats[j].kld = kld_partials_[static_cast<std::size_t>(first)];
    }
  }

 private:
  // Everything one pass in flight owns: its stream, device staging, tasks and outputs.
  struct Slot {
    typename Glue::Stream stream;
    thrust::device_vector<uint8_t> device_staging;
    std::vector<LayoutMap> layouts;  // the pass's maps; tasks refer to them by index
    std::vector<std::pair<int32_t, int32_t>> layout_index;  // per job: (x, y) map index or -1
    thrust::device_vector<LayoutMap> device_layouts;
    Launch pair, boolean, kld;
    thrust::device_vector<ChunkTask> pair_tasks, bool_tasks, kld_tasks;
    thrust::device_vector<PairAccumulator> pair_out;
    thrust::device_vector<BoolAccumulator> bool_out;
    thrust::device_vector<KldAccumulator> kld_out;
    typename Glue::template HostBuffer<PairAccumulator> pair_host;
    typename Glue::template HostBuffer<BoolAccumulator> bool_host;
    typename Glue::template HostBuffer<KldAccumulator> kld_host;
  };

  // Reads the pass's payloads from the mapped dump files and uploads them into the slot's device
  // staging on its stream, with the pass's layout maps; returns once every copy is queued.
  void stage(const std::vector<TensorPairJob>& jobs, const StagingPass& pass, Slot& slot) {
    wait(slot);  // the slot's previous pass is done with its buffers
    slot.layouts.clear();
    slot.layout_index.assign(jobs.size(), {-1, -1});
    for (const StagedRange& r : pass.ranges) {
      const TensorPairJob& job = jobs[static_cast<std::size_t>(r.job)];
      auto& index = slot.layout_index[static_cast<std::size_t>(r.job)];
      for (const auto& [side, where] :
           {std::pair{&job.x, &index.first}, std::pair{&job.y, &index.second}}) {
        if (side->layout == nullptr) continue;
        *where = static_cast<int32_t>(slot.layouts.size());
        slot.layouts.push_back(*side->layout);
      }
    }
    if (slot.device_staging.size() < pass.bytes) {
      const TraceScope trace("device: staging allocation", pass.bytes);
      slot.device_staging.resize(pass.bytes);
    }
    const std::vector<StagedSegment> segments = staged_segments(jobs, pass);
    const TraceScope trace("staging: read the mapped dumps, queue the uploads", pass.bytes);
    uploader_.upload(thrust::raw_pointer_cast(slot.device_staging.data()), segments,
                     cut_upload_blocks(segments, kUploadBlockBytes), slot.stream, host_threads());
    if (slot.device_layouts.size() < slot.layouts.size())
      slot.device_layouts.resize(slot.layouts.size());
    Glue::copy_to_device(thrust::raw_pointer_cast(slot.device_layouts.data()), slot.layouts.data(),
                         slot.layouts.size() * sizeof(LayoutMap), slot.stream);
  }

  void launch_first(const std::vector<TensorPairJob>& jobs, const StagingPass& pass, Slot& slot) {
    slot.pair = tasks_for(jobs, pass, slot,
                          [&](int j) { return !jobs[static_cast<std::size_t>(j)].both_bool; });
    slot.boolean = tasks_for(jobs, pass, slot,
                             [&](int j) { return jobs[static_cast<std::size_t>(j)].both_bool; });
    launch<LiftPairTask>(slot.pair, slot, slot.pair_tasks, slot.pair_out, slot.pair_host);
    launch<LiftBoolTask>(slot.boolean, slot, slot.bool_tasks, slot.bool_out, slot.bool_host);
  }

  static void wait(Slot& slot) {
    const TraceScope trace("device: waiting for uploads and kernels");
    Glue::synchronize(slot.stream);
  }

  // Waits for the slot's first-pass accumulators and puts them in their chunk slots.
  void finish_first_pass(Slot& slot) {
    wait(slot);
    scatter(slot.pair, slot.pair_host, pair_partials_);
    scatter(slot.boolean, slot.bool_host, bool_partials_);
  }

  void finish_kld(Slot& slot) {
    wait(slot);
    scatter(slot.kld, slot.kld_host, kld_partials_);
  }

  template <typename Select>
  Launch tasks_for(const std::vector<TensorPairJob>& jobs, const StagingPass& pass,
                   const Slot& slot, Select select, bool with_scales = false) {
    Launch l;
    for (const StagedRange& r : pass.ranges) {
      if (!select(r.job)) continue;
      const auto j = static_cast<std::size_t>(r.job);
      int64_t local = 0, id = r.first_chunk;
      do {
        ChunkTask t;
        t.x_offset = static_cast<int64_t>(r.x_offset);
        t.y_offset = static_cast<int64_t>(r.y_offset);
        t.local_begin = local;
        t.count = std::min(options_.chunk_elements, r.count - local);
        t.x_dtype = jobs[j].x.dtype;
        t.y_dtype = jobs[j].y.dtype;
        t.x_layout = slot.layout_index[j].first;
        t.y_layout = slot.layout_index[j].second;
        if (with_scales) {
          t.sx = scale_x_[j];
          t.sy = scale_y_[j];
        }
        l.tasks.push_back(t);
        l.chunk_ids.push_back(id++);
        local += t.count;
      } while (local < r.count);
    }
    return l;
  }

  // The pass's pairs that are radix-selected and staged whole in it, counted on the device.
  void count_quantiles(const std::vector<TensorPairJob>& jobs, const StagingPlan& plan,
                       const StagingPass& pass, Slot& slot, std::vector<PairQuantiles>& out,
                       std::vector<char>& counted) {
    const auto here = [&](int j) {
      return !plan.job_split[static_cast<std::size_t>(j)] &&
             counted_on_device(jobs[static_cast<std::size_t>(j)].x.count);
    };
    // A pair held whole has its own chunks as tasks, in the order of the pass's ranges.
    std::vector<typename QuantileCounter<Glue>::Pair> pairs;
    int64_t tasks = 0;
    for (const StagedRange& r : pass.ranges) {
      if (!here(r.job)) continue;
      const auto j = static_cast<std::size_t>(r.job);
      const int64_t n = plan.job_first_chunk[j + 1] - plan.job_first_chunk[j];
      pairs.push_back({r.job, tasks, n});
      tasks += n;
    }
    if (pairs.empty()) return;
    quantiles_.count(thrust::raw_pointer_cast(slot.device_staging.data()),
                     thrust::raw_pointer_cast(slot.device_layouts.data()),
                     tasks_for(jobs, pass, slot, here).tasks, pairs, slot.stream, out, counted);
  }

  template <typename Select>
  Launch kld_tasks(const std::vector<TensorPairJob>& jobs, const StagingPass& pass,
                   const Slot& slot, Select select) {
    return tasks_for(
        jobs, pass, slot,
        [&](int j) { return select(j) && kld_ready_[static_cast<std::size_t>(j)]; }, true);
  }

  void launch_kld(Launch l, Slot& slot) {
    slot.kld = std::move(l);
    launch<LiftKldTask>(slot.kld, slot, slot.kld_tasks, slot.kld_out, slot.kld_host);
  }

  // Groups the tasks by view kind, uploads them, runs `Lift` over them on the slot's stream and
  // queues the copy of the accumulators back; nothing waits here.
  template <typename Lift, typename Acc, typename HostOut>
  void launch(Launch& l, Slot& slot, thrust::device_vector<ChunkTask>& tasks,
              thrust::device_vector<Acc>& out, HostOut& host_out) {
    if (l.tasks.empty()) return;
    group_by_view_kind(l);
    const std::size_t n = l.tasks.size();
    if (tasks.size() < n) tasks.resize(n);
    if (out.size() < n) out.resize(n);
    host_out.reserve(n);
    Glue::copy_to_device(thrust::raw_pointer_cast(tasks.data()), l.tasks.data(),
                         n * sizeof(ChunkTask), slot.stream);
    const Lift lift{thrust::raw_pointer_cast(slot.device_staging.data()),
                    thrust::raw_pointer_cast(tasks.data()),
                    thrust::raw_pointer_cast(slot.device_layouts.data())};
    Glue::run(slot.stream, lift, l.kinds, thrust::raw_pointer_cast(out.data()));
    Glue::copy_to_host(host_out.data(), thrust::raw_pointer_cast(out.data()), n * sizeof(Acc),
                       slot.stream);
  }

  template <typename HostOut, typename Acc>
  static void scatter(Launch& l, const HostOut& host_out, std::vector<Acc>& partials) {
    for (std::size_t i = 0; i < l.tasks.size(); ++i) {
      partials[static_cast<std::size_t>(l.chunk_ids[i])] = host_out.data()[i];
    }
    l = Launch{};
  }

  // Merges the first-pass partials of every job whose last range was in this pass.
  void finish_jobs(const std::vector<TensorPairJob>& jobs, const StagingPlan& plan,
                   const StagingPass& pass, std::vector<PairStats>& stats) {
    for (const StagedRange& r : pass.ranges) {
      const auto j = static_cast<std::size_t>(r.job);
      if (r.begin + r.count < jobs[j].x.count || merged_[j]) continue;
      const int64_t first = plan.job_first_chunk[j], n = plan.job_first_chunk[j + 1] - first;
      merge_pairwise(pair_partials_.data() + first, n);
      merge_pairwise(bool_partials_.data() + first, n);
      stats[j].both_bool = jobs[j].both_bool;
      stats[j].pair = pair_partials_[static_cast<std::size_t>(first)];
      stats[j].boolean = bool_partials_[static_cast<std::size_t>(first)];
      merged_[j] = 1;
      scale_x_[j] = kld_scale_x(jobs[j], stats[j]);
      scale_y_[j] = kld_scale_y(jobs[j], stats[j]);
      kld_ready_[j] = wants_kld_pass(jobs[j], stats[j]);
    }
  }

  int host_threads() const { return options_.threads > 0 ? options_.threads : 1; }

  DeviceOptions options_;
  typename Glue::Uploader uploader_;
  QuantileCounter<Glue> quantiles_;
  Slot slots_[2];
  std::vector<PairAccumulator> pair_partials_;
  std::vector<BoolAccumulator> bool_partials_;
  std::vector<KldAccumulator> kld_partials_;
  std::vector<char> merged_, kld_ready_;
  std::vector<KldScale> scale_x_, scale_y_;
};

}  // namespace dumpcmp::device
