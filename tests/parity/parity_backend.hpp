#pragma once
// The device backend a parity executable tests: thrust-omp (DUMPCMP_PARITY_BACKEND_THRUST_OMP) or
// cuda, which is null where no device can be used (the tests skip); its resident reducer, and
// copies of host bytes where it computes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "device_backends.hpp"

#if !defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)
#include <cuda_runtime.h>
#endif

namespace dumpcmp {

inline std::unique_ptr<Backend> device_backend(const DeviceOptions& options) {
#if defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)
  return make_thrust_omp_backend(options);
#else
  std::string why;
  return make_cuda_backend(options, why);
#endif
}

// The same with a staging budget, on 2 threads.
inline std::unique_ptr<Backend> device_backend(uint64_t budget) {
  DeviceOptions options;
  options.memory_budget = budget;
  options.threads = 2;
  return device_backend(options);
}

inline std::unique_ptr<ResidentReducer> resident_reducer(std::string& why) {
#if defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)
  (void)why;
  return make_thrust_omp_resident_reducer(2);
#else
  return make_cuda_resident_reducer(0, why);
#endif
}

// A copy of host bytes in the device's memory (host memory for thrust-omp, whose "device" it is),
// `offset` bytes past the start of its allocation (a tensor that does not start on a 16-byte
// boundary, as a view into another may not).
class DeviceCopy {
 public:
  DeviceCopy(const uint8_t* host, std::size_t bytes, std::size_t offset = 0) : offset_(offset) {
#if defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)
    data_ = static_cast<uint8_t*>(std::malloc(offset + bytes + 1));
    if (bytes) std::memcpy(data_ + offset, host, bytes);
#else
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&data_), offset + bytes + 1), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(data_ + offset, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
#endif
  }
  DeviceCopy(DeviceCopy&& o) noexcept : data_(o.data_), offset_(o.offset_) { o.data_ = nullptr; }
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;
  ~DeviceCopy() {
#if defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)
    std::free(data_);
#else
    cudaFree(data_);
#endif
  }
  const uint8_t* data() const { return data_ + offset_; }

 private:
  uint8_t* data_ = nullptr;
  std::size_t offset_ = 0;
};

// The jobs with each side's bytes copied where the device computes (kept in `copies`), each
// `offset` bytes past its allocation's start.
inline std::vector<TensorPairJob> device_copies(const std::vector<TensorPairJob>& jobs,
                                                std::vector<DeviceCopy>& copies,
                                                std::size_t offset = 0) {
  copies.reserve(copies.size() + 2 * jobs.size());
  std::vector<TensorPairJob> in_place = jobs;
  for (TensorPairJob& job : in_place) {
    for (ElementSource* side : {&job.x, &job.y}) {
      const std::size_t bytes =
          static_cast<std::size_t>(side->count) * dtype_storage_size(side->dtype);
      copies.emplace_back(side->data, bytes, offset);
      side->data = copies.back().data();
    }
  }
  return in_place;
}

}  // namespace dumpcmp
