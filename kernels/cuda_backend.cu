// The cuda backend: the same device path (thrust_reducer.inl) built by nvcc for the CUDA device
// system, with the CUDA-only glue (cuda_glue.cuh: streams, pinned buffers, async copies) and the
// device probe. Compiled in CI, executed only on a
// machine with a GPU (docs/architecture.md lists what has never run here).
#include <cuda_runtime.h>

#include "cuda_glue.cuh"
#include "device_backends.hpp"
#include "thrust_reducer.inl"

namespace dumpcmp {
namespace {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const DeviceOptions& options) : reducer_(options) {}
  std::string_view name() const override { return "cuda"; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override {
    reducer_.reduce(jobs, stats);
  }

 private:
  device::ThrustReducer<device::CudaGlue> reducer_;
};

}  // namespace

bool cuda_backend_built() { return true; }

std::unique_ptr<Backend> make_cuda_backend(const DeviceOptions& options, std::string& why_not) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    why_not = cudaGetErrorString(status);
    return nullptr;
  }
  if (count == 0) {
    why_not = "no CUDA device";
    return nullptr;
  }
  if (const cudaError_t set = cudaSetDevice(options.slot % count); set != cudaSuccess) {
    why_not = cudaGetErrorString(set);
    return nullptr;
  }
  // One lane per thread on the GPU: a smaller chunk gives enough threads to fill it.
  DeviceOptions o = options;
  if (o.chunk_elements == DeviceOptions{}.chunk_elements) o.chunk_elements = 2048;
  return std::make_unique<CudaBackend>(o);
}

}  // namespace dumpcmp
