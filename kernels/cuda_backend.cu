// The cuda backend: the same device path (thrust_reducer.inl) built by nvcc for the CUDA device
// system, with the CUDA-only glue (cuda_glue.cuh: streams, pinned buffers, async copies) and the
// device probe. Compiled in CI, executed only on a
// machine with a GPU (docs/architecture.md lists what has never run here).
#include <cuda_runtime.h>

#include <algorithm>
#include <future>
#include <memory>

#include "core/phase_trace.hpp"
#include "cuda_glue.cuh"
#include "device_backends.hpp"
#include "probe_reduction.inl"
#include "resident_probe.inl"
#include "resident_reduction.inl"
#include "thrust_reducer.inl"

namespace dumpcmp {
namespace {

using CudaReducer = device::ThrustReducer<device::CudaGlue>;

// The reducer (its streams, hence the device's context: about 0.23 s on an H100 host, 0.11 s on an
// H200 host) and its pinned upload blocks are made on a background thread from the backend's
// creation, so they come up while the run opens and parses its dumps.
class CudaBackend final : public Backend {
 public:
  CudaBackend(const DeviceOptions& options, int device)
      : device_(device),
        probe_(options.memory_budget),
        pending_(std::async(std::launch::async, [options, device] {
          const TraceScope trace("cuda: context and streams (in the background)");
          DUMPCMP_CUDA_CHECK(cudaSetDevice(device));
          DeviceOptions o = options;
          if (o.budget_from_free_memory) {
            std::size_t free = 0, total = 0;
            DUMPCMP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
            o.memory_budget = std::max<uint64_t>(o.memory_budget,
                                                 std::min<uint64_t>(free / 4, uint64_t{16} << 30));
          }
          auto reducer = std::make_unique<CudaReducer>(o);
          reducer->prepare();
          return reducer;
        })) {}
  ~CudaBackend() override {
    const TraceScope trace("cuda: teardown (buffers, streams)");
    reducer_.reset();
    if (pending_.valid()) pending_.wait();
  }
  std::string_view name() const override { return "cuda"; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override {
    ready().reduce(jobs, stats);
  }
  void reduce_counting_quantiles(const std::vector<TensorPairJob>& jobs,
                                 std::vector<PairStats>& stats,
                                 std::vector<PairQuantiles>& quantiles,
                                 std::vector<char>& counted) override {
    ready().reduce(jobs, stats, &quantiles, &counted);
  }
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                    std::vector<ProbeSums>& sums) override {
    ready();
    probe_.reduce(jobs, order, sums);
  }

 private:
  // The reducer, once the background thread has made it, on this thread's current device.
  CudaReducer& ready() {
    if (!reducer_) {
      const TraceScope trace("cuda: waiting for the context");
      reducer_ = pending_.get();  // rethrows the background thread's error
    }
    DUMPCMP_CUDA_CHECK(cudaSetDevice(device_));  // the current device is per thread
    return *reducer_;
  }

  int device_;
  device::ProbeReduction probe_;
  std::future<std::unique_ptr<CudaReducer>> pending_;
  std::unique_ptr<CudaReducer> reducer_;
};

// Tensors already on the device, reduced on the caller's stream (its work before the call is
// ordered before the kernels; the call returns when the stream has finished them).
class CudaResident final : public ResidentReducer {
 public:
  explicit CudaResident(int device) : device_(device) {}
  std::string_view name() const override { return "cuda"; }
  void reduce(const std::vector<TensorPairJob>& jobs, void* stream, std::vector<PairStats>& stats,
              std::vector<PairQuantiles>* quantiles) override {
    DUMPCMP_CUDA_CHECK(cudaSetDevice(device_));
    device::CudaGlue::Stream borrowed(static_cast<cudaStream_t>(stream));
    reduction_.reduce(jobs, borrowed, stats, quantiles);
  }
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order, void* stream,
                    std::vector<ProbeSums>& sums) override {
    DUMPCMP_CUDA_CHECK(cudaSetDevice(device_));
    device::CudaGlue::Stream borrowed(static_cast<cudaStream_t>(stream));
    probe_.reduce(jobs, order, borrowed, sums);
  }

 private:
  int device_;
  device::ResidentReduction<device::CudaGlue> reduction_;
  device::ResidentProbeReduction<device::CudaGlue> probe_;
};

// The number of devices, or 0 with the reason.
int device_count(std::string& why_not) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    why_not = cudaGetErrorString(status);
    return 0;
  }
  if (count == 0) why_not = "no CUDA device";
  return count;
}

}  // namespace

bool cuda_backend_built() { return true; }

std::unique_ptr<Backend> make_cuda_backend(const DeviceOptions& options, std::string& why_not) {
  const int count = device_count(why_not);
  if (count == 0) return nullptr;
  return std::make_unique<CudaBackend>(options, options.slot % count);
}

std::unique_ptr<ResidentReducer> make_cuda_resident_reducer(int device, std::string& why_not) {
  const int count = device_count(why_not);
  if (count == 0) return nullptr;
  if (device < 0 || device >= count) {
    why_not = "no CUDA device " + std::to_string(device) + " (" + std::to_string(count) + " found)";
    return nullptr;
  }
  return std::make_unique<CudaResident>(device);
}

}  // namespace dumpcmp
