// CpuBackend::reduce_probe (math/probe_pair.hpp): each OpenBLAS part of each pair is one task;
// the tasks run side by side and each pair's parts are added in order, so the result does not
// depend on the thread count.
#include <algorithm>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "math/blas_dot.hpp"
#include "math/probe_parts.hpp"
#include "simd/probe_decode.hpp"
#include "simd/probe_lift.hpp"

namespace dumpcmp {
namespace {

// One part, a block of elements at a time: decoded to float64, lifted, then fed to the dots.
ProbeSums reduce_part(const ProbePairJob& job, int64_t begin, int64_t count, BlasDotKernel kernel) {
  constexpr int64_t kBlock = int64_t{1} << 14;
  // Sized to the part: a small tensor's buffers then stay below malloc's mmap threshold.
  const auto buffer = static_cast<std::size_t>(std::min(kBlock, count));
  std::vector<double> x(buffer), y(buffer), d(buffer);
  BlasDot dot(count, kernel), npu_sq(count, kernel), bench_sq(count, kernel),
      diff_sq(count, kernel);
  const std::size_t npu_size = dtype_storage_size(job.npu.dtype);
  const std::size_t bench_size = dtype_storage_size(job.bench.dtype);
  ProbeSums sums;
  for (int64_t at = begin; at < begin + count; at += kBlock) {
    const int64_t n = std::min(kBlock, begin + count - at);
    const auto offset = static_cast<std::size_t>(at);
    simd::decode_to_double(job.npu.dtype, job.npu.data + offset * npu_size, n, x.data());
    simd::decode_to_double(job.bench.dtype, job.bench.data + offset * bench_size, n, y.data());
    sums.acc.merge(simd::lift_probe_chunk(x.data(), y.data(), d.data(), n, job.relative_f32));
    dot.add(x.data(), y.data(), n);
    npu_sq.add(x.data(), x.data(), n);
    bench_sq.add(y.data(), y.data(), n);
    diff_sq.add(d.data(), d.data(), n);
  }
  sums.dot = dot.result();
  sums.npu_sq = npu_sq.result();
  sums.bench_sq = bench_sq.result();
  sums.diff_sq = diff_sq.result();
  return sums;
}

}  // namespace

void CpuBackend::reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                              std::vector<ProbeSums>& sums) {
  const std::vector<ProbePart> parts = probe_parts(jobs, 0, jobs.size(), order.threads);
  std::vector<ProbeSums> partial(parts.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads_) if (parts.size() > 1)
  for (std::size_t p = 0; p < parts.size(); ++p)
    partial[p] = reduce_part(jobs[parts[p].job], parts[p].begin, parts[p].count, order.kernel);
  sums.assign(jobs.size(), ProbeSums{});
  add_probe_parts(parts, partial, sums);
}

}  // namespace dumpcmp
