#pragma once
// The OpenMP device system's side of the reducer's glue: "device" memory is host memory, copies are
// memcpy and every step is synchronous, so the pipeline runs in the CUDA order without a GPU.
#include <thrust/execution_policy.h>

#include <cstring>
#include <vector>

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

  static void synchronize(Stream&) {}
  static void copy_to_device(void* dst, const void* src, std::size_t bytes, Stream&) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static void copy_to_host(void* dst, const void* src, std::size_t bytes, Stream&) {
    if (bytes) std::memcpy(dst, src, bytes);
  }
  static auto policy(Stream&) { return THRUST_NS_QUALIFIER::device; }
};

}  // namespace dumpcmp::device
