// The device backends' reduction, written once on Thrust and compiled twice: by nvcc for CUDA
// (cuda_backend.cu) and by the host compiler for Thrust's OpenMP device system
// (thrust_omp_backend.cpp). Included by exactly one translation unit per device system; each wraps
// Thrust in its own namespace (THRUST_CUB_WRAPPED_NAMESPACE), so the two never collide.
//
// Per batch: plan staging passes (staging_plan), and per pass pack the payloads on the host, copy
// them to the device in one transfer, lift every chunk with the shared functors (decode inside the
// load), bring back only the per-chunk accumulators, and merge them per job on the host in the
// same fixed pairwise order as the CPU backend. KLD runs on the still-staged data for jobs that fit
// in one pass, and in a second sweep for jobs split across passes.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstring>
#include <vector>

#include "dumpcmp/engine/chunk_plan.hpp"
#include "dumpcmp/metrics/accumulator.hpp"
#include "dumpcmp/metrics/element_source.hpp"
#include "dumpcmp/metrics/metric_table.hpp"
#include "staging_plan.hpp"

namespace dumpcmp::device {

// Thrust lives in a per-system wrapper namespace (THRUST_CUB_WRAPPED_NAMESPACE).
namespace thrust = THRUST_NS_QUALIFIER;

// One chunk's work, uploaded per pass (plain data).
struct ChunkTask {
  int64_t x_offset = 0, y_offset = 0;  // staging bytes where the chunk's range starts
  int64_t local_begin = 0;             // first element of the chunk within its range
  int64_t count = 0;
  DType x_dtype = DType::kFloat, y_dtype = DType::kFloat;
  KldScale sx, sy;
};

// Element i of a staged range, decoded at the load: no converted copy ever exists.
struct DecodingView {
  const uint8_t* data;
  DType dtype;
  int64_t begin;
  DUMPCMP_HD float operator[](int64_t i) const { return decode_element(data, dtype, begin + i); }
};

// The same with the dtype fixed at compile time, so the decode switch folds away in the hot loop.
template <DType T>
struct TypedView {
  const uint8_t* data;
  int64_t begin;
  DUMPCMP_HD float operator[](int64_t i) const { return decode_element(data, T, begin + i); }
};

// Calls f(x_view, y_view) with typed views for the common same-type pairs, generic ones otherwise.
template <typename F>
DUMPCMP_HD auto with_views(const uint8_t* staging, const ChunkTask& t, F f) {
  const uint8_t* x = staging + t.x_offset;
  const uint8_t* y = staging + t.y_offset;
  if (t.x_dtype == t.y_dtype) {
    switch (t.x_dtype) {
      case DType::kFloat:
        return f(TypedView<DType::kFloat>{x, t.local_begin}, TypedView<DType::kFloat>{y, t.local_begin});
      case DType::kFloat16:
        return f(TypedView<DType::kFloat16>{x, t.local_begin},
                 TypedView<DType::kFloat16>{y, t.local_begin});
      case DType::kBFloat16:
        return f(TypedView<DType::kBFloat16>{x, t.local_begin},
                 TypedView<DType::kBFloat16>{y, t.local_begin});
      default: break;
    }
  }
  return f(DecodingView{x, t.x_dtype, t.local_begin}, DecodingView{y, t.y_dtype, t.local_begin});
}

struct PairLift {
  int64_t n;
  template <typename X, typename Y>
  DUMPCMP_HD PairAccumulator operator()(const X& x, const Y& y) const {
    return lift_pair_chunk(x, y, n);
  }
};

struct BoolLift {
  int64_t n;
  template <typename X, typename Y>
  DUMPCMP_HD BoolAccumulator operator()(const X& x, const Y& y) const {
    return lift_bool_chunk(x, y, n);
  }
};

struct KldLift {
  int64_t n;
  KldScale sx, sy;
  template <typename X, typename Y>
  DUMPCMP_HD KldAccumulator operator()(const X& x, const Y& y) const {
    return lift_kld_chunk(x, y, n, sx, sy);
  }
};

struct LiftPairTask {
  const uint8_t* staging;
  const ChunkTask* tasks;
  DUMPCMP_HD PairAccumulator operator()(int64_t c) const {
    return with_views(staging, tasks[c], PairLift{tasks[c].count});
  }
};

struct LiftBoolTask {
  const uint8_t* staging;
  const ChunkTask* tasks;
  DUMPCMP_HD BoolAccumulator operator()(int64_t c) const {
    return with_views(staging, tasks[c], BoolLift{tasks[c].count});
  }
};

struct LiftKldTask {
  const uint8_t* staging;
  const ChunkTask* tasks;
  DUMPCMP_HD KldAccumulator operator()(int64_t c) const {
    const ChunkTask& t = tasks[c];
    return with_views(staging, t, KldLift{t.count, t.sx, t.sy});
  }
};

class ThrustReducer {
 public:
  explicit ThrustReducer(const DeviceOptions& options) : options_(options) {}

  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) {
    stats.assign(jobs.size(), PairStats{});
    const StagingPlan plan = plan_staging(jobs, options_.memory_budget, options_.chunk_elements);
    const auto total_chunks = static_cast<std::size_t>(plan.job_first_chunk.back());
    pair_partials_.assign(total_chunks, PairAccumulator{});
    bool_partials_.assign(total_chunks, BoolAccumulator{});
    kld_partials_.assign(total_chunks, KldAccumulator{});
    merged_.assign(jobs.size(), 0);
    kld_ready_.assign(jobs.size(), 0);
    scale_x_.assign(jobs.size(), KldScale{});
    scale_y_.assign(jobs.size(), KldScale{});

    for (const StagingPass& pass : plan.passes) {
      stage(jobs, pass);
      lift_first_pass(jobs, pass);
      finish_jobs(jobs, plan, pass, stats);
      lift_kld(jobs, pass, [&](int job) { return !plan.job_split[static_cast<std::size_t>(job)]; });
    }
    // Jobs split across passes know their KLD scale only now: stage their ranges again.
    std::vector<char> deferred(jobs.size(), 0);
    bool any = false;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      deferred[j] = plan.job_split[j] && wants_kld(jobs[j], stats[j]);
      any = any || deferred[j];
    }
    if (any) {
      for (const StagingPass& pass : plan.passes) {
        bool used = false;
        for (const StagedRange& r : pass.ranges) used = used || deferred[static_cast<std::size_t>(r.job)];
        if (!used) continue;
        stage(jobs, pass);
        lift_kld(jobs, pass, [&](int job) { return deferred[static_cast<std::size_t>(job)] != 0; });
      }
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (!wants_kld(jobs[j], stats[j])) continue;
      const int64_t first = plan.job_first_chunk[j];
      merge_pairwise(kld_partials_.data() + first, plan.job_first_chunk[j + 1] - first);
      stats[j].kld = kld_partials_[static_cast<std::size_t>(first)];
    }
  }

 private:
  static bool wants_kld(const TensorPairJob& job, const PairStats& s) {
    return !job.both_bool && job.need_kld && kld_pass_possible(s.pair);
  }

  // Packs the pass's payloads into one host buffer and copies it to the device in one transfer.
  void stage(const std::vector<TensorPairJob>& jobs, const StagingPass& pass) {
    host_staging_.resize(pass.bytes);
    const auto count = static_cast<int64_t>(pass.ranges.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t i = 0; i < count; ++i) {
      const StagedRange& r = pass.ranges[static_cast<std::size_t>(i)];
      const TensorPairJob& job = jobs[static_cast<std::size_t>(r.job)];
      copy_side(job.x, r, r.x_offset);
      copy_side(job.y, r, r.y_offset);
    }
    if (device_staging_.size() < pass.bytes) device_staging_.resize(pass.bytes);
    thrust::copy(host_staging_.begin(), host_staging_.end(), device_staging_.begin());
  }

  void copy_side(const ElementSource& src, const StagedRange& r, uint64_t offset) {
    std::memcpy(host_staging_.data() + offset, src.data + element_byte_offset(src.dtype, r.begin),
                element_bytes(src.dtype, r.count));
  }

  template <typename Select>
  std::vector<ChunkTask> tasks_for(const std::vector<TensorPairJob>& jobs, const StagingPass& pass,
                                   Select select, std::vector<int64_t>& chunk_ids,
                                   const std::vector<KldScale>* sx = nullptr,
                                   const std::vector<KldScale>* sy = nullptr) {
    std::vector<ChunkTask> tasks;
    chunk_ids.clear();
    for (const StagedRange& r : pass.ranges) {
      if (!select(r.job)) continue;
      const TensorPairJob& job = jobs[static_cast<std::size_t>(r.job)];
      int64_t local = 0, id = r.first_chunk;
      do {
        ChunkTask t;
        t.x_offset = static_cast<int64_t>(r.x_offset);
        t.y_offset = static_cast<int64_t>(r.y_offset);
        t.local_begin = local;
        t.count = std::min(options_.chunk_elements, r.count - local);
        t.x_dtype = job.x.dtype;
        t.y_dtype = job.y.dtype;
        if (sx) {
          t.sx = (*sx)[static_cast<std::size_t>(r.job)];
          t.sy = (*sy)[static_cast<std::size_t>(r.job)];
        }
        tasks.push_back(t);
        chunk_ids.push_back(id++);
        local += t.count;
      } while (local < r.count);
    }
    return tasks;
  }

  // Runs `lift` over the tasks on the device and scatters the partials to their chunk slots.
  template <typename Acc, typename Lift>
  void run(const std::vector<ChunkTask>& tasks, const std::vector<int64_t>& chunk_ids,
           std::vector<Acc>& partials) {
    if (tasks.empty()) return;
    thrust::device_vector<ChunkTask> device_tasks(tasks.begin(), tasks.end());
    thrust::device_vector<Acc> device_out(tasks.size());
    const Lift lift{thrust::raw_pointer_cast(device_staging_.data()),
                    thrust::raw_pointer_cast(device_tasks.data())};
    thrust::transform(thrust::device, thrust::counting_iterator<int64_t>(0),
                      thrust::counting_iterator<int64_t>(static_cast<int64_t>(tasks.size())),
                      device_out.begin(), lift);
    std::vector<Acc> host_out(tasks.size());
    thrust::copy(device_out.begin(), device_out.end(), host_out.begin());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      partials[static_cast<std::size_t>(chunk_ids[i])] = host_out[i];
    }
  }

  void lift_first_pass(const std::vector<TensorPairJob>& jobs, const StagingPass& pass) {
    std::vector<int64_t> ids;
    auto numeric = tasks_for(jobs, pass, [&](int j) { return !jobs[static_cast<std::size_t>(j)].both_bool; }, ids);
    run<PairAccumulator, LiftPairTask>(numeric, ids, pair_partials_);
    auto boolean = tasks_for(jobs, pass, [&](int j) { return jobs[static_cast<std::size_t>(j)].both_bool; }, ids);
    run<BoolAccumulator, LiftBoolTask>(boolean, ids, bool_partials_);
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
      scale_x_[j] = kld_scale(stats[j].pair.x);
      scale_y_[j] = kld_scale(stats[j].pair.y);
      kld_ready_[j] = wants_kld(jobs[j], stats[j]);
    }
  }

  template <typename Select>
  void lift_kld(const std::vector<TensorPairJob>& jobs, const StagingPass& pass, Select select) {
    std::vector<int64_t> ids;
    auto tasks = tasks_for(
        jobs, pass,
        [&](int j) { return select(j) && kld_ready_[static_cast<std::size_t>(j)]; },
        ids, &scale_x_, &scale_y_);
    run<KldAccumulator, LiftKldTask>(tasks, ids, kld_partials_);
  }

  int threads() const { return options_.threads > 0 ? options_.threads : 1; }

  DeviceOptions options_;
  std::vector<uint8_t> host_staging_;
  thrust::device_vector<uint8_t> device_staging_;
  std::vector<PairAccumulator> pair_partials_;
  std::vector<BoolAccumulator> bool_partials_;
  std::vector<KldAccumulator> kld_partials_;
  std::vector<char> merged_, kld_ready_;
  std::vector<KldScale> scale_x_, scale_y_;
};

}  // namespace dumpcmp::device
