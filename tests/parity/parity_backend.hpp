#pragma once
// The device backend a parity executable tests: thrust-omp (DUMPCMP_PARITY_BACKEND_THRUST_OMP) or
// cuda, which is null where no device can be used (the tests skip).
#include <memory>
#include <string>

#include "device_backends.hpp"

namespace dumpcmp {

inline std::unique_ptr<Backend> device_backend(const DeviceOptions& options) {
#if defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)
  return make_thrust_omp_backend(options);
#else
  std::string why;
  return make_cuda_backend(options, why);
#endif
}

}  // namespace dumpcmp
