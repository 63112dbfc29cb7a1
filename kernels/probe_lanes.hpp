#pragma once
// A batch of msprobe pairs as device tasks (math/probe_pair.hpp): each OpenBLAS part's vector
// kernel lanes, one thread per lane (reduce_probe_lane: that lane's chains of fused multiply-adds,
// which numpy's order makes sequential, so a part has no more parallelism than its lanes), then one
// thread per part finishing it from its lanes' sums (finish_probe_part): the cpu backend's bits.
#include <cstdint>
#include <vector>

#include "core/dtype.hpp"
#include "core/host_device.hpp"
#include "math/probe_pair.hpp"
#include "math/probe_parts.hpp"

namespace dumpcmp::device {

// A side's bytes where the device holds it: count elements, 256-byte aligned (a staged side).
inline uint64_t probe_side_bytes(const ProbeSide& side, int64_t count) {
  return (static_cast<uint64_t>(count) * dtype_storage_size(side.dtype) + 255) & ~uint64_t{255};
}

struct ProbePartTask {
  ProbePairJob job;  // its sides where the device reads them
  int64_t begin = 0, count = 0;
  int64_t first_lane = 0;  // its lanes' results in the lane output
};

struct ProbeLaneTask {
  int64_t part = 0;
  int lane = 0;
};

struct ProbeLaneLift {
  const ProbePartTask* parts;
  const ProbeLaneTask* lanes;
  BlasDotKernel kernel;
  DUMPCMP_HD ProbeSums operator()(int64_t t) const {
    const ProbePartTask& p = parts[lanes[t].part];
    return reduce_probe_lane(p.job, p.begin, p.count, kernel, lanes[t].lane);
  }
};

struct ProbeFinishLift {
  const ProbePartTask* parts;
  const ProbeSums* lane_sums;
  BlasDotKernel kernel;
  DUMPCMP_HD ProbeSums operator()(int64_t p) const {
    const ProbePartTask& t = parts[p];
    return finish_probe_part(t.job, t.begin, t.count, kernel, lane_sums + t.first_lane);
  }
};

struct ProbeTasks {
  std::vector<ProbePartTask> parts;
  std::vector<ProbeLaneTask> lanes;
};

// The tasks of `parts`, whose jobs are staged[part.job - first_job].
inline ProbeTasks probe_tasks(const std::vector<ProbePart>& parts,
                              const std::vector<ProbePairJob>& staged, std::size_t first_job,
                              BlasDotKernel kernel) {
  ProbeTasks tasks;
  tasks.parts.reserve(parts.size());
  for (const ProbePart& part : parts) {
    ProbePartTask t{staged[part.job - first_job], part.begin, part.count,
                    static_cast<int64_t>(tasks.lanes.size())};
    if (blas_lane_elements(part.count, kernel) > 0) {
      for (int lane = 0; lane < blas_lanes(kernel); ++lane)
        tasks.lanes.push_back({static_cast<int64_t>(tasks.parts.size()), lane});
    }
    tasks.parts.push_back(t);
  }
  return tasks;
}

}  // namespace dumpcmp::device
