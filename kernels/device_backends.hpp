#pragma once
// The device backends, seen from the registry: no CUDA or Thrust types here.
#include <cstdint>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "math/chunk_plan.hpp"

namespace dumpcmp {

struct DeviceOptions {
  uint64_t memory_budget = 1ull << 30;  // bytes of staged payload per pass (device memory bound)
  int64_t chunk_elements = kChunkElements;  // elements per partial accumulator
  int threads = 0;                          // thrust-omp: OpenMP threads (0 = all cores)
  int slot = 0;  // cuda: the device is slot modulo the device count (one GPU per rank of a host)
};

// The GPU's own code path (Thrust on the OpenMP device system), run on CPU threads.
std::unique_ptr<Backend> make_thrust_omp_backend(const DeviceOptions& options);

// nullptr, with the reason in why_not, when CUDA was not compiled in or no device is usable.
std::unique_ptr<Backend> make_cuda_backend(const DeviceOptions& options, std::string& why_not);

// Whether nvcc built the cuda backend into this binary.
bool cuda_backend_built();

}  // namespace dumpcmp
