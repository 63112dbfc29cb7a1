// msprobe's real-data compare on a device system (Backend::reduce_probe), written once on Thrust
// and compiled for CUDA and for the OpenMP system like thrust_reducer.inl. Each pair's two payloads
// are staged (256-byte aligned) up to the memory budget at a time, and each OpenBLAS part of each
// pair is one device thread running math/probe_pair.hpp's reduce_probe_part: the CPU's templates,
// so the CPU's bits. Numpy's order is a chain of fused multiply-adds per lane of each part, so a
// large tensor gets few threads: correct on a device, not fast (docs/performance.md).
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <vector>

#include "core/dtype.hpp"
#include "math/blas_dot.hpp"
#include "math/probe_pair.hpp"
#include "math/probe_parts.hpp"

namespace dumpcmp::device {

namespace thrust = THRUST_NS_QUALIFIER;

struct ProbePartTask {
  ProbePairJob job;  // its sides point into the staging
  int64_t begin = 0, count = 0;
};

struct ProbePartLift {
  const ProbePartTask* tasks;
  ProbeSums* out;
  BlasDotKernel kernel;
  DUMPCMP_HD void operator()(int64_t t) const {
    out[t] = reduce_probe_part(tasks[t].job, tasks[t].begin, tasks[t].count, kernel);
  }
};

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

  static uint64_t side_bytes(const ProbeSide& side, int64_t count) {
    return (static_cast<uint64_t>(count) * dtype_storage_size(side.dtype) + 255) & ~uint64_t{255};
  }
  static uint64_t staged_bytes(const ProbePairJob& job) {
    return side_bytes(job.npu, job.count) + side_bytes(job.bench, job.count);
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
        at += side_bytes(*side, job.count);
      }
    }
    const std::vector<ProbePart> parts = probe_parts(jobs, begin, end, order.threads);
    std::vector<ProbePartTask> tasks;
    for (const ProbePart& part : parts)
      tasks.push_back({staged[part.job - begin], part.begin, part.count});
    const thrust::device_vector<ProbePartTask> device_tasks(tasks.begin(), tasks.end());
    thrust::device_vector<ProbeSums> device_out(tasks.size());
    thrust::for_each(thrust::device, thrust::counting_iterator<int64_t>(0),
                     thrust::counting_iterator<int64_t>(static_cast<int64_t>(tasks.size())),
                     ProbePartLift{thrust::raw_pointer_cast(device_tasks.data()),
                                   thrust::raw_pointer_cast(device_out.data()), order.kernel});
    std::vector<ProbeSums> partial(tasks.size());
    thrust::copy(device_out.begin(), device_out.end(), partial.begin());
    add_probe_parts(parts, partial, sums);
  }
};

}  // namespace dumpcmp::device
