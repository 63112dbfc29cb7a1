#pragma once
#include <vector>

#include "backend/backend.hpp"
#include "core/scratch_buffer.hpp"
#include "math/chunk_plan.hpp"

namespace dumpcmp {

// Reduces straight from the mapped payloads: every job is cut into fixed-size chunks (independent
// of the thread count), chunks of all jobs in the batch run in parallel, and each job's partials
// merge in a fixed pairwise order, so results are identical whatever the thread count.
class CpuBackend final : public Backend {
 public:
  static constexpr int64_t kChunkElements = dumpcmp::kChunkElements;

  // threads 0: every core this process may use.
  explicit CpuBackend(int threads);
  std::string_view name() const override { return "cpu"; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override;
  // cpu_probe.cpp: every pair's OpenBLAS parts side by side, in the CPU's vector code.
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                    std::vector<ProbeSums>& sums) override;

 private:
  int threads_;
  ScratchBuffer kept_buffer_;  // the first pass's copies for the KLD pass, reused
};

}  // namespace dumpcmp
