#pragma once
// CUDA-only glue of the reducer (compiled by nvcc; executed only where a GPU is present): RAII
// streams and pinned host buffers, the uploader, async copies and the kernel launches. Every CUDA
// call is checked.
#include <cuda_runtime.h>
#include <omp.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "chunk_launch.hpp"
#include "core/error.hpp"
#include "core/phase_trace.hpp"
#include "lane_kernels.cuh"
#include "lane_tiles.cuh"
#include "quantile_kernels.cuh"
#include "staging_plan.hpp"

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
  // Or the caller's stream, borrowed (tensors already on the device are reduced on it).
  class Stream {
   public:
    Stream() { DUMPCMP_CUDA_CHECK(cudaStreamCreate(&stream_)); }
    explicit Stream(cudaStream_t borrowed) : stream_(borrowed), owned_(false) {}
    ~Stream() {
      if (owned_) cudaStreamDestroy(stream_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }

   private:
    cudaStream_t stream_ = nullptr;
    bool owned_ = true;
  };

  // Device memory without Thrust's initialising kernel (which runs on the legacy default stream,
  // unordered with a borrowed non-blocking stream); grows, never shrinks.
  template <typename T>
  class DeviceBuffer {
   public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() { cudaFree(items_); }
    void reserve(std::size_t n) {
      if (n <= capacity_) return;
      cudaFree(items_);
      items_ = nullptr;
      capacity_ = 0;
      DUMPCMP_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&items_), n * sizeof(T)));
      capacity_ = n;
    }
    T* data() { return items_; }

   private:
    T* items_ = nullptr;
    std::size_t capacity_ = 0;
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

  // A pass's upload with little pinned memory: each host thread fills its own two pinned buffers of
  // one block in turn (one is filled while the other's copy is in flight), so the pinned memory is
  // 2 x threads x kUploadBlockBytes whatever the budget. Pinning whole passes cost about 0.6 ms per
  // MiB on the H100 host, more than reading the files (docs/performance.md).
  class Uploader {
   public:
    Uploader() = default;
    Uploader(const Uploader&) = delete;
    Uploader& operator=(const Uploader&) = delete;
    ~Uploader() {
      for (Buffer& b : buffers_) cudaEventDestroy(b.done);
      for (uint8_t* region : regions_) cudaFreeHost(region);
    }

    // Pinned blocks for `threads` host threads (two each) in one allocation: made with the
    // context in the background, so the first upload does not wait for pinning (32 separate
    // 2 MiB allocations took 0.4 s of thread time on an H200 host).
    void reserve(int threads) {
      const std::size_t want = 2 * static_cast<std::size_t>(threads);
      if (buffers_.size() >= want) return;
      const std::size_t add = want - buffers_.size();
      uint8_t* region = nullptr;
      {
        const TraceScope trace("cuda: pinned blocks (cudaMallocHost)", add * kUploadBlockBytes);
        DUMPCMP_CUDA_CHECK(
            cudaMallocHost(reinterpret_cast<void**>(&region), add * kUploadBlockBytes));
      }
      regions_.push_back(region);
      for (std::size_t i = 0; i < add; ++i) {
        Buffer b;
        b.data = region + i * kUploadBlockBytes;
        DUMPCMP_CUDA_CHECK(cudaEventCreateWithFlags(&b.done, cudaEventDisableTiming));
        buffers_.push_back(b);
      }
    }

    void upload(uint8_t* device, const std::vector<StagedSegment>& segments,
                const std::vector<UploadBlock>& blocks, Stream& stream, int threads) {
      int id = 0;
      DUMPCMP_CUDA_CHECK(cudaGetDevice(&id));
      reserve(threads);
      std::atomic<int> failed{cudaSuccess};
      const auto count = static_cast<int64_t>(blocks.size());
#pragma omp parallel num_threads(threads)
      {
        const auto me = static_cast<std::size_t>(omp_get_thread_num());
        cudaError_t status = cudaSetDevice(id);  // the current device is per thread
        std::size_t turn = 0;
#pragma omp for schedule(dynamic)
        for (int64_t i = 0; i < count; ++i) {
          if (status != cudaSuccess) continue;
          turn ^= 1;
          status = send(buffers_[2 * me + turn], device, blocks[static_cast<std::size_t>(i)],
                        segments, stream.get());
        }
        int none = cudaSuccess;
        if (status != cudaSuccess) failed.compare_exchange_strong(none, status);
      }
      const auto status = static_cast<cudaError_t>(failed.load());
      if (status != cudaSuccess) {
        throw Error(ExitCode::kDevice,
                    std::string("staging upload: ") + cudaGetErrorString(status));
      }
    }

   private:
    struct Buffer {
      uint8_t* data = nullptr;     // kUploadBlockBytes in one of regions_
      cudaEvent_t done = nullptr;  // its last copy has finished
    };

    static cudaError_t send(Buffer& b, uint8_t* device, const UploadBlock& block,
                            const std::vector<StagedSegment>& segments, cudaStream_t stream) {
      // The buffer's last copy has left it (an event never recorded is complete).
      const cudaError_t status = cudaEventSynchronize(b.done);
      if (status != cudaSuccess) return status;
      for_each_block_part(block, segments, [&](uint64_t at, const uint8_t* from, uint64_t bytes) {
        std::memcpy(b.data + (at - block.offset), from, bytes);
      });
      const cudaError_t copied = cudaMemcpyAsync(device + block.offset, b.data, block.bytes,
                                                 cudaMemcpyHostToDevice, stream);
      return copied == cudaSuccess ? cudaEventRecord(b.done, stream) : copied;
    }

    std::vector<Buffer> buffers_;
    std::vector<uint8_t*> regions_;  // the pinned allocations the buffers lie in
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
  static void fill_zero(void* dst, std::size_t bytes, Stream& s) {
    if (bytes) DUMPCMP_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, s.get()));
  }
  // --quantiles' passes (quantile_kernels.cuh) on the stream; nothing waits.
  static void count_top(Stream& s, const QuantileLaunch& q, int64_t segments) {
    DUMPCMP_CUDA_CHECK(cudaFuncSetAttribute(
        count_top_keys, cudaFuncAttributeMaxDynamicSharedMemorySize, int{kTopSharedBytes}));
    count_top_keys<<<dim3(static_cast<unsigned>(segments), 2), kTopThreads, kTopSharedBytes,
                     s.get()>>>(q);
    DUMPCMP_CUDA_CHECK(cudaGetLastError());
  }
  static void count_low(Stream& s, const QuantileLaunch& q, int64_t segments, int64_t) {
    count_low_keys<<<dim3(static_cast<unsigned>(segments), 2), kLowThreads, 0, s.get()>>>(q);
    DUMPCMP_CUDA_CHECK(cudaGetLastError());
  }
  // out[c] = lift(c) for every chunk task c, on the slot's stream; nothing waits. The first-pass
  // and KLD lifts run with the CPU's lane layout (lane_kernels.cuh), the rare bool lift one
  // thread per chunk.
  template <typename Lift, typename Acc>
  static void run(Stream& s, const Lift& lift, int64_t chunks, Acc* out) {
    THRUST_NS_QUALIFIER::transform(THRUST_NS_QUALIFIER::cuda::par_nosync.on(s.get()),
                                   THRUST_NS_QUALIFIER::counting_iterator<int64_t>(0),
                                   THRUST_NS_QUALIFIER::counting_iterator<int64_t>(chunks), out,
                                   lift);
  }
  // Tasks grouped by view kind (chunk_launch.hpp): one launch per kind present, over its tasks.
  template <typename Lift, typename Acc>
  static void run(Stream& s, const Lift& lift, const KindRanges& kinds, Acc* out) {
    run(s, lift, kinds.total(), out);
  }
  static void run(Stream& s, const LiftPairTask& lift, const KindRanges& kinds,
                  PairAccumulator* out) {
    launch_lanes(
        s, lift, kinds, out, [](auto kind) { return lift_pair_lanes<decltype(kind)::value>; },
        [](auto kind) { return lift_pair_tiles<decltype(kind)::value>; });
  }
  static void run(Stream& s, const LiftKldTask& lift, const KindRanges& kinds,
                  KldAccumulator* out) {
    launch_lanes(
        s, lift, kinds, out, [](auto kind) { return lift_kld_lanes<decltype(kind)::value>; },
        [](auto kind) { return lift_kld_tiles<decltype(kind)::value>; });
  }

 private:
  // DUMPCMP_LANE_TILES=1: the typed kinds' lifts read their chunks through shared-memory tiles
  // (lane_tiles.cuh), an experiment to measure against the direct loads; read once.
  static bool lane_tiles() {
    static const bool on = [] {
      const char* v = std::getenv("DUMPCMP_LANE_TILES");
      return v != nullptr && std::strcmp(v, "1") == 0;
    }();
    return on;
  }

  // One launch per view kind with tasks, over its tasks: the kernel lanes(kind) gives, or for the
  // typed kinds under DUMPCMP_LANE_TILES=1 the one tiles(kind) gives (the same signature).
  template <typename Lift, typename Acc, typename Lanes, typename Tiles>
  static void launch_lanes(Stream& s, const Lift& lift, const KindRanges& kinds, Acc* out,
                           Lanes lanes, Tiles tiles) {
    for_each_view_kind(kinds, [&](auto kind, int64_t first, int64_t end) {
      auto kernel = lanes(kind);
      if constexpr (decltype(kind)::value != ViewKind::kDecoding) {
        if (lane_tiles()) kernel = tiles(kind);
      }
      kernel<<<lane_blocks(end - first), kLaneThreads, 0, s.get()>>>(lift, first, end, out);
    });
  }

  // Calls launch(kind, first, end) for each view kind with tasks, the kind as a compile-time
  // constant, then checks the launches.
  template <typename F>
  static void for_each_view_kind(const KindRanges& kinds, F launch) {
    const auto each = [&](auto kind) {
      const ViewKind k = decltype(kind)::value;
      if (kinds.first(k) < kinds.end(k)) launch(kind, kinds.first(k), kinds.end(k));
    };
    each(std::integral_constant<ViewKind, ViewKind::kFloat>{});
    each(std::integral_constant<ViewKind, ViewKind::kFloat16>{});
    each(std::integral_constant<ViewKind, ViewKind::kBFloat16>{});
    each(std::integral_constant<ViewKind, ViewKind::kDecoding>{});
    DUMPCMP_CUDA_CHECK(cudaGetLastError());
  }
};

}  // namespace dumpcmp::device
