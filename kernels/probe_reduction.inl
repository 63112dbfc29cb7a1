// msprobe's real-data compare on a device system (Backend::reduce_probe), written once on Thrust
// and compiled for CUDA and for the OpenMP system like thrust_reducer.inl. Each pair's two payloads
// are staged (256-byte aligned) up to the memory budget at a time, and each OpenBLAS part of each
// pair is reduced by one device thread per lane of its vector kernel, then finished by one
// (probe_lanes.hpp): the CPU's templates, so the CPU's bits. Numpy's order is a chain of fused
// multiply-adds per lane of each part, so a large tensor gets parts x lanes threads.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <vector>

#include "core/dtype.hpp"
#include "math/blas_dot.hpp"
#include "math/probe_pair.hpp"
#include "math/probe_parts.hpp"
#include "probe_lanes.hpp"

namespace dumpcmp::device {

namespace thrust = THRUST_NS_QUALIFIER;

class ProbeReduction {
 public:
  explicit ProbeReduction(uint64_t budget) : budget_(budget) {}

  void reduce(const std::vector<ProbePairJob>& jobs, BlasOrder order,
              std::vector<ProbeSums>& sums) {
    sums.assign(jobs.size(), ProbeSums{});
    for (std::size_t begin = 0; begin < jobs.size();) {
      std::size_t end = begin;
      uint64_t bytes = 0;
      while (end < jobs.size()) {  // a pair larger than the budget goes alone
        const uint64_t b = staged_bytes(jobs[end]);
        if (end > begin && bytes + b > budget_) break;
        bytes += b;
        ++end;
      }
      reduce_batch(jobs, begin, end, bytes, order, sums);
      begin = end;
    }
  }

 private:
  uint64_t budget_;
  thrust::device_vector<uint8_t> staging_;

  static uint64_t staged_bytes(const ProbePairJob& job) {
    return probe_side_bytes(job.npu, job.count) + probe_side_bytes(job.bench, job.count);
  }

  void reduce_batch(const std::vector<ProbePairJob>& jobs, std::size_t begin, std::size_t end,
                    uint64_t bytes, BlasOrder order, std::vector<ProbeSums>& sums) {
    if (staging_.size() < bytes) staging_.resize(bytes);
    uint8_t* base = thrust::raw_pointer_cast(staging_.data());
    std::vector<ProbePairJob> staged(jobs.begin() + static_cast<std::ptrdiff_t>(begin),
                                     jobs.begin() + static_cast<std::ptrdiff_t>(end));
    uint64_t at = 0;
    for (ProbePairJob& job : staged) {
      for (ProbeSide* side : {&job.npu, &job.bench}) {
        const uint64_t n = static_cast<uint64_t>(job.count) * dtype_storage_size(side->dtype);
        thrust::copy(side->data, side->data + n, staging_.begin() + static_cast<int64_t>(at));
        side->data = base + at;
        at += probe_side_bytes(*side, job.count);
      }
    }
    const std::vector<ProbePart> parts = probe_parts(jobs, begin, end, order.threads);
    const ProbeTasks tasks = probe_tasks(parts, staged, begin, order.kernel);
    const thrust::device_vector<ProbePartTask> device_parts(tasks.parts.begin(), tasks.parts.end());
    const thrust::device_vector<ProbeLaneTask> device_lanes(tasks.lanes.begin(), tasks.lanes.end());
    thrust::device_vector<ProbeSums> lane_out(tasks.lanes.size()), part_out(tasks.parts.size());
    const ProbePartTask* part_tasks = thrust::raw_pointer_cast(device_parts.data());
    thrust::transform(
        thrust::device, thrust::counting_iterator<int64_t>(0),
        thrust::counting_iterator<int64_t>(static_cast<int64_t>(tasks.lanes.size())),
        lane_out.begin(),
        ProbeLaneLift{part_tasks, thrust::raw_pointer_cast(device_lanes.data()), order.kernel});
    thrust::transform(
        thrust::device, thrust::counting_iterator<int64_t>(0),
        thrust::counting_iterator<int64_t>(static_cast<int64_t>(tasks.parts.size())),
        part_out.begin(),
        ProbeFinishLift{part_tasks, thrust::raw_pointer_cast(lane_out.data()), order.kernel});
    std::vector<ProbeSums> partial(tasks.parts.size());
    thrust::copy(part_out.begin(), part_out.end(), partial.begin());
    add_probe_parts(parts, partial, sums);
  }
};

}  // namespace dumpcmp::device
