#pragma once
// The device backends, seen from the registry: no CUDA or Thrust types here.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"
#include "math/chunk_plan.hpp"

namespace dumpcmp {

struct DeviceOptions {
  uint64_t memory_budget = 1ull << 30;  // bytes of staged payload per pass (device memory bound)
  // cuda: raise the budget to a quarter of the device's free memory (at most 16 GiB), so a large
  // pair is staged in one pass and its KLD pass reads it where it lies instead of staging it again.
  bool budget_from_free_memory = false;
  int64_t chunk_elements = kChunkElements;  // elements per partial accumulator
  int threads = 0;                          // thrust-omp: OpenMP threads (0 = all cores)
  int slot = 0;  // cuda: the device is slot modulo the device count (one GPU per rank of a host)
};

// The GPU's own code path (Thrust on the OpenMP device system), run on CPU threads.
std::unique_ptr<Backend> make_thrust_omp_backend(const DeviceOptions& options);

// nullptr, with the reason in why_not, when CUDA was not compiled in or no device is usable.
std::unique_ptr<Backend> make_cuda_backend(const DeviceOptions& options, std::string& why_not);

// Reduces tensor pairs whose payloads already live on the device (torch, CuPy or JAX tensors
// through DLPack), in place on the caller's stream: the same kernels and merge order as the
// backends, so the same accumulators, bit for bit. Sides have no layout maps.
class ResidentReducer {
 public:
  virtual ~ResidentReducer() = default;
  virtual std::string_view name() const = 0;
  // `stream` is a cudaStream_t (null: the legacy default stream); thrust-omp's "device" is host
  // memory and it has no streams. With `quantiles`, quantiles[i] receives jobs[i]'s --quantiles
  // distributions, compute_error_quantiles' values: pairs of more than kInMemoryQuantileLimit
  // elements counted on the device, the smaller copied to the host. Returns once the work is done.
  virtual void reduce(const std::vector<TensorPairJob>& jobs, void* stream,
                      std::vector<PairStats>& stats, std::vector<PairQuantiles>* quantiles) = 0;
  // msprobe's real-data compare of a run as it runs (probe_live): each job's bench side lies where
  // the device computes, its NPU side (a data file's array) in host memory and is uploaded here.
  // The same sums, bit for bit, as Backend::reduce_probe.
  virtual void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order, void* stream,
                            std::vector<ProbeSums>& sums) = 0;
};

// nullptr, with the reason in why_not, when CUDA was not compiled in or `device` is not usable.
std::unique_ptr<ResidentReducer> make_cuda_resident_reducer(int device, std::string& why_not);
std::unique_ptr<ResidentReducer> make_thrust_omp_resident_reducer(int threads);

// Whether nvcc built the cuda backend into this binary.
bool cuda_backend_built();

}  // namespace dumpcmp
