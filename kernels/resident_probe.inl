// msprobe's real-data compare of a run's tensors as the run produces them (ResidentReducer::
// reduce_probe): the bench side already lies where the device computes (a CUDA tensor; host memory
// on Thrust's OpenMP system), the NPU side is its data file's array in host memory and is uploaded
// once. Each OpenBLAS part of each pair is reduced lane by lane, then finished (probe_lanes.hpp),
// as probe_reduction.inl does, so the CPU's bits. Included by exactly one translation unit per
// device system, after its glue.
#include <cstdint>
#include <vector>

#include "core/dtype.hpp"
#include "math/blas_dot.hpp"
#include "math/probe_pair.hpp"
#include "math/probe_parts.hpp"
#include "probe_lanes.hpp"

namespace dumpcmp::device {

template <typename Glue>
class ResidentProbeReduction {
 public:
  // sums[i] receives jobs[i]'s sums; returns once `stream` has finished the work.
  void reduce(const std::vector<ProbePairJob>& jobs, BlasOrder order, typename Glue::Stream& stream,
              std::vector<ProbeSums>& sums) {
    sums.assign(jobs.size(), ProbeSums{});
    if (jobs.empty()) return;
    uint64_t bytes = 0;
    for (const ProbePairJob& job : jobs) bytes += probe_side_bytes(job.npu, job.count);
    upload_.reserve(bytes);
    std::vector<ProbePairJob> staged = jobs;
    uint64_t at = 0;
    for (ProbePairJob& job : staged) {
      const auto n = static_cast<std::size_t>(job.count) * dtype_storage_size(job.npu.dtype);
      Glue::copy_to_device(upload_.data() + at, job.npu.data, n, stream);
      job.npu.data = upload_.data() + at;
      at += probe_side_bytes(job.npu, job.count);
    }
    const std::vector<ProbePart> parts = probe_parts(jobs, 0, jobs.size(), order.threads);
    const ProbeTasks tasks = probe_tasks(parts, staged, 0, order.kernel);
    const std::size_t n_parts = tasks.parts.size(), n_lanes = tasks.lanes.size();
    parts_.reserve(n_parts);
    lanes_.reserve(n_lanes);
    lane_out_.reserve(n_lanes);
    out_.reserve(n_parts);
    back_.reserve(n_parts);
    Glue::copy_to_device(parts_.data(), tasks.parts.data(), n_parts * sizeof(ProbePartTask),
                         stream);
    Glue::copy_to_device(lanes_.data(), tasks.lanes.data(), n_lanes * sizeof(ProbeLaneTask),
                         stream);
    if (n_lanes > 0) {
      Glue::run(stream, ProbeLaneLift{parts_.data(), lanes_.data(), order.kernel},
                static_cast<int64_t>(n_lanes), lane_out_.data());
    }
    Glue::run(stream, ProbeFinishLift{parts_.data(), lane_out_.data(), order.kernel},
              static_cast<int64_t>(n_parts), out_.data());
    Glue::copy_to_host(back_.data(), out_.data(), n_parts * sizeof(ProbeSums), stream);
    Glue::synchronize(stream);
    const std::vector<ProbeSums> partial(back_.data(), back_.data() + n_parts);
    add_probe_parts(parts, partial, sums);
  }

 private:
  typename Glue::template DeviceBuffer<uint8_t> upload_;
  typename Glue::template DeviceBuffer<ProbePartTask> parts_;
  typename Glue::template DeviceBuffer<ProbeLaneTask> lanes_;
  typename Glue::template DeviceBuffer<ProbeSums> lane_out_, out_;
  typename Glue::template HostBuffer<ProbeSums> back_;
};

}  // namespace dumpcmp::device
