// msprobe's real-data compare of a run's tensors as the run produces them (ResidentReducer::
// reduce_probe): the bench side already lies where the device computes (a CUDA tensor; host memory
// on Thrust's OpenMP system), the NPU side is its data file's array in host memory and is uploaded
// once. Each OpenBLAS part of each pair is one device thread running math/probe_pair.hpp's
// reduce_probe_part, as probe_reduction.inl does, so the CPU's bits. Included by exactly one
// translation unit per device system, after its glue.
#include <cstdint>
#include <vector>

#include "core/dtype.hpp"
#include "math/blas_dot.hpp"
#include "math/probe_pair.hpp"
#include "math/probe_parts.hpp"

namespace dumpcmp::device {

struct ResidentProbeTask {
  ProbePairJob job;  // its NPU side points into the upload, its bench side at the tensor
  int64_t begin = 0, count = 0;
};

struct ResidentProbeLift {
  const ResidentProbeTask* tasks;
  BlasDotKernel kernel;
  DUMPCMP_HD ProbeSums operator()(int64_t t) const {
    return reduce_probe_part(tasks[t].job, tasks[t].begin, tasks[t].count, kernel);
  }
};

template <typename Glue>
class ResidentProbeReduction {
 public:
  // sums[i] receives jobs[i]'s sums; returns once `stream` has finished the work.
  void reduce(const std::vector<ProbePairJob>& jobs, BlasOrder order, typename Glue::Stream& stream,
              std::vector<ProbeSums>& sums) {
    sums.assign(jobs.size(), ProbeSums{});
    if (jobs.empty()) return;
    uint64_t bytes = 0;
    for (const ProbePairJob& job : jobs) bytes += npu_bytes(job);
    upload_.reserve(bytes);
    std::vector<ProbePairJob> staged = jobs;
    uint64_t at = 0;
    for (ProbePairJob& job : staged) {
      const auto n = static_cast<std::size_t>(job.count) * dtype_storage_size(job.npu.dtype);
      Glue::copy_to_device(upload_.data() + at, job.npu.data, n, stream);
      job.npu.data = upload_.data() + at;
      at += npu_bytes(job);
    }
    const std::vector<ProbePart> parts = probe_parts(jobs, 0, jobs.size(), order.threads);
    std::vector<ResidentProbeTask> tasks;
    tasks.reserve(parts.size());
    for (const ProbePart& part : parts) tasks.push_back({staged[part.job], part.begin, part.count});
    const std::size_t n = tasks.size();
    tasks_.reserve(n);
    out_.reserve(n);
    back_.reserve(n);
    Glue::copy_to_device(tasks_.data(), tasks.data(), n * sizeof(ResidentProbeTask), stream);
    Glue::run(stream, ResidentProbeLift{tasks_.data(), order.kernel}, static_cast<int64_t>(n),
              out_.data());
    Glue::copy_to_host(back_.data(), out_.data(), n * sizeof(ProbeSums), stream);
    Glue::synchronize(stream);
    const std::vector<ProbeSums> partial(back_.data(), back_.data() + n);
    add_probe_parts(parts, partial, sums);
  }

 private:
  // 256-byte aligned, as a staged side is.
  static uint64_t npu_bytes(const ProbePairJob& job) {
    return (static_cast<uint64_t>(job.count) * dtype_storage_size(job.npu.dtype) + 255) &
           ~uint64_t{255};
  }

  typename Glue::template DeviceBuffer<uint8_t> upload_;
  typename Glue::template DeviceBuffer<ResidentProbeTask> tasks_;
  typename Glue::template DeviceBuffer<ProbeSums> out_;
  typename Glue::template HostBuffer<ProbeSums> back_;
};

}  // namespace dumpcmp::device
