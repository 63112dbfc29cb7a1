#pragma once
// CUDA-only glue of the reducer (compiled by nvcc; executed only where a GPU is present): RAII
// streams and pinned host buffers, async copies, the stream-ordered Thrust policy. Every CUDA call
// is checked.
#include <cuda_runtime.h>
#include <thrust/system/cuda/execution_policy.h>

#include <string>

#include "core/error.hpp"

#define DUMPCMP_CUDA_CHECK(call)                                                               \
  do {                                                                                         \
    const cudaError_t dumpcmp_status_ = (call);                                                \
    if (dumpcmp_status_ != cudaSuccess) {                                                      \
      throw ::dumpcmp::Error(::dumpcmp::ExitCode::kDevice,                                     \
                             std::string(#call) + ": " + cudaGetErrorString(dumpcmp_status_)); \
    }                                                                                          \
  } while (0)

namespace dumpcmp::device {

struct CudaGlue {
  // A blocking stream: it also orders against the legacy default stream Thrust's allocations use.
  class Stream {
   public:
    Stream() { DUMPCMP_CUDA_CHECK(cudaStreamCreate(&stream_)); }
    ~Stream() { cudaStreamDestroy(stream_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }

   private:
    cudaStream_t stream_ = nullptr;
  };

  // Pinned (page-locked) host memory, so uploads are true async DMA; grows, never shrinks.
  template <typename T>
  class HostBuffer {
   public:
    HostBuffer() = default;
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    ~HostBuffer() { cudaFreeHost(items_); }
    void reserve(std::size_t n) {
      if (n <= capacity_) return;
      cudaFreeHost(items_);
      items_ = nullptr;
      capacity_ = 0;
      DUMPCMP_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&items_), n * sizeof(T)));
      capacity_ = n;
    }
    T* data() { return items_; }
    const T* data() const { return items_; }

   private:
    T* items_ = nullptr;
    std::size_t capacity_ = 0;
  };

  static void synchronize(Stream& s) { DUMPCMP_CUDA_CHECK(cudaStreamSynchronize(s.get())); }
  static void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream& s) {
    if (bytes)
      DUMPCMP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.get()));
  }
  static void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream& s) {
    if (bytes)
      DUMPCMP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s.get()));
  }
  // Kernels launch on the slot's stream and Thrust does not wait for them.
  static auto policy(Stream& s) { return THRUST_NS_QUALIFIER::cuda::par_nosync.on(s.get()); }
};

}  // namespace dumpcmp::device
