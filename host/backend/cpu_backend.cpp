#include "backend/cpu_backend.hpp"

#include <omp.h>

#include "math/chunk_plan.hpp"

namespace dumpcmp {
namespace {

// Scratch for one chunk's decoded elements, per thread.
struct DecodeBuffers {
  std::vector<float> x = std::vector<float>(CpuBackend::kChunkElements);
  std::vector<float> y = std::vector<float>(CpuBackend::kChunkElements);
};

template <typename Acc, typename Lift>
void reduce_chunks(const std::vector<TensorPairJob>& jobs, const ChunkPlan& plan,
                   const std::vector<char>& active, int threads, std::vector<Acc>& partials,
                   Lift lift) {
  const int64_t chunk_count = static_cast<int64_t>(plan.chunks.size());
  partials.assign(plan.chunks.size(), Acc{});
#pragma omp parallel num_threads(threads)
  {
    DecodeBuffers buffers;
#pragma omp for schedule(dynamic, 4)
    for (int64_t c = 0; c < chunk_count; ++c) {
      const Chunk& chunk = plan.chunks[static_cast<std::size_t>(c)];
      const TensorPairJob& job = jobs[static_cast<std::size_t>(chunk.job)];
      if (!active[static_cast<std::size_t>(chunk.job)] || chunk.count == 0) continue;
      decode_elements(job.x, chunk.begin, chunk.count, buffers.x.data());
      decode_elements(job.y, chunk.begin, chunk.count, buffers.y.data());
      partials[static_cast<std::size_t>(c)] =
          lift(static_cast<std::size_t>(chunk.job), static_cast<const float*>(buffers.x.data()),
               static_cast<const float*>(buffers.y.data()), chunk.count);
    }
  }
  for (std::size_t j = 0; j + 1 < plan.first_chunk.size(); ++j) {
    const int64_t first = plan.first_chunk[j];
    merge_pairwise(partials.data() + first, plan.first_chunk[j + 1] - first);
  }
}

}  // namespace

void CpuBackend::reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) {
  stats.assign(jobs.size(), PairStats{});
  std::vector<int64_t> counts;
  counts.reserve(jobs.size());
  for (const TensorPairJob& job : jobs) counts.push_back(job.x.count);
  const ChunkPlan plan = make_chunk_plan(counts, kChunkElements);

  std::vector<char> numeric(jobs.size()), boolean(jobs.size()), kld(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    // A slice with its whole tensor's first pass needs only the KLD pass.
    boolean[j] = jobs[j].both_bool && !jobs[j].whole;
    numeric[j] = !jobs[j].both_bool && !jobs[j].whole;
  }

  std::vector<PairAccumulator> pair_partials;
  reduce_chunks(jobs, plan, numeric, threads_, pair_partials,
                [](std::size_t, const float* x, const float* y, int64_t n) {
                  return lift_pair_chunk(x, y, n);
                });
  std::vector<BoolAccumulator> bool_partials;
  reduce_chunks(jobs, plan, boolean, threads_, bool_partials,
                [](std::size_t, const float* x, const float* y, int64_t n) {
                  return lift_bool_chunk(x, y, n);
                });

  std::vector<KldScale> scale_x(jobs.size()), scale_y(jobs.size());
  bool any_kld = false;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto first = static_cast<std::size_t>(plan.first_chunk[j]);
    stats[j].both_bool = jobs[j].both_bool;
    stats[j].pair = pair_partials[first];
    stats[j].boolean = bool_partials[first];
    kld[j] = wants_kld_pass(jobs[j], stats[j]);
    any_kld = any_kld || kld[j];
    scale_x[j] = kld_scale_x(jobs[j], stats[j]);
    scale_y[j] = kld_scale_y(jobs[j], stats[j]);
  }
  if (!any_kld) return;

  std::vector<KldAccumulator> kld_partials;
  reduce_chunks(jobs, plan, kld, threads_, kld_partials,
                [&](std::size_t j, const float* x, const float* y, int64_t n) {
                  return lift_kld_chunk(x, y, n, scale_x[j], scale_y[j]);
                });
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (kld[j]) stats[j].kld = kld_partials[static_cast<std::size_t>(plan.first_chunk[j])];
  }
}

}  // namespace dumpcmp
