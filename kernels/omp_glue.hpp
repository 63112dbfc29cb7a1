#pragma once
// The OpenMP device system's side of the reducer's glue: "device" memory is host memory, copies are
// memcpy and every step is synchronous, so the pipeline runs in the CUDA order without a GPU.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstring>
#include <vector>

#include "staging_plan.hpp"

namespace dumpcmp::device {

struct OmpGlue {
  struct Stream {};

  template <typename T>
  class HostBuffer {
   public:
    void reserve(std::size_t n) {
      if (items_.size() < n) items_.resize(n);
    }
    T* data() { return items_.data(); }
    const T* data() const { return items_.data(); }

   private:
    std::vector<T> items_;
  };
  template <typename T>
  using DeviceBuffer = HostBuffer<T>;

  // A pass's upload: each block's parts are copied straight into the (host) device buffer, the
  // blocks spread over the host threads as on CUDA.
  struct Uploader {
    void reserve(int) {}
    void upload(uint8_t* device, const std::vector<StagedSegment>& segments,
                const std::vector<UploadBlock>& blocks, Stream&, int threads) {
      const auto count = static_cast<int64_t>(blocks.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads)
      for (int64_t i = 0; i < count; ++i) {
        for_each_block_part(blocks[static_cast<std::size_t>(i)], segments,
                            [&](uint64_t at, const uint8_t* from, uint64_t bytes) {
                              std::memcpy(device + at, from, bytes);
                            });
      }
    }
  };

  static void synchronize(Stream&) {}
  static void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream&) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream&) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  // out[c] = lift(c) for every chunk task c.
  template <typename Lift, typename Acc>
  static void run(Stream&, const Lift& lift, int64_t chunks, Acc* out) {
    THRUST_NS_QUALIFIER::transform(
        THRUST_NS_QUALIFIER::device, THRUST_NS_QUALIFIER::counting_iterator<int64_t>(0),
        THRUST_NS_QUALIFIER::counting_iterator<int64_t>(chunks), out, lift);
  }
};

}  // namespace dumpcmp::device
