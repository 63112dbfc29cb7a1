// The cuda backend: the same device path (thrust_reducer.inl) built by nvcc for the CUDA device
// system, with the CUDA-only glue (cuda_glue.cuh: streams, pinned buffers, async copies) and the
// device probe. Compiled in CI, executed only on a
// machine with a GPU (docs/architecture.md lists what has never run here).
#include <cuda_runtime.h>

#include <future>
#include <memory>

#include "cuda_glue.cuh"
#include "device_backends.hpp"
#include "thrust_reducer.inl"

namespace dumpcmp {
namespace {

using CudaReducer = device::ThrustReducer<device::CudaGlue>;

// The reducer (its streams, hence the device's context: about 0.23 s on an H100 host) is made on
// a background thread from the backend's creation, so the context comes up while the run opens and
// parses its dumps.
class CudaBackend final : public Backend {
 public:
  CudaBackend(const DeviceOptions& options, int device)
      : device_(device), pending_(std::async(std::launch::async, [options, device] {
          DUMPCMP_CUDA_CHECK(cudaSetDevice(device));
          return std::make_unique<CudaReducer>(options);
        })) {}
  std::string_view name() const override { return "cuda"; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override {
    if (!reducer_) reducer_ = pending_.get();    // rethrows the background thread's error
    DUMPCMP_CUDA_CHECK(cudaSetDevice(device_));  // the current device is per thread
    reducer_->reduce(jobs, stats);
  }

 private:
  int device_;
  std::future<std::unique_ptr<CudaReducer>> pending_;
  std::unique_ptr<CudaReducer> reducer_;
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
  return std::make_unique<CudaBackend>(options, options.slot % count);
}

}  // namespace dumpcmp
