// Built instead of cuda_backend.cu when the CUDA compiler is absent but thrust-omp is built.
#include "device_backends.hpp"

namespace dumpcmp {

bool cuda_backend_built() { return false; }

std::unique_ptr<Backend> make_cuda_backend(const DeviceOptions&, std::string& why_not) {
  why_not = "this dumpcmp was built without CUDA";
  return nullptr;
}

std::unique_ptr<ResidentReducer> make_cuda_resident_reducer(int, std::string& why_not) {
  why_not = "this dumpcmp was built without CUDA";
  return nullptr;
}

}  // namespace dumpcmp
