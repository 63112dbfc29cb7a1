// The only place that knows which backends were compiled in: a build flag is read here and
// nowhere else (docs/architecture.md, backend/).
#include <omp.h>

#include "backend/auto_backend.hpp"
#include "backend/backend.hpp"
#include "backend/cpu_backend.hpp"
#include "core/error.hpp"

#if defined(DUMPCMP_HAVE_DEVICE)
#include "device_backends.hpp"
#endif

namespace dumpcmp {

bool parse_device_choice(std::string_view text, DeviceChoice& out) {
  if (text == "auto")
    out = DeviceChoice::kAuto;
  else if (text == "cpu")
    out = DeviceChoice::kCpu;
  else if (text == "cuda")
    out = DeviceChoice::kCuda;
  else if (text == "thrust-omp")
    out = DeviceChoice::kThrustOmp;
  else
    return false;
  return true;
}

std::string built_backends() {
  std::string names = "cpu";
#if defined(DUMPCMP_HAVE_DEVICE)
  names += ", thrust-omp";
  if (cuda_backend_built()) names += ", cuda";
#endif
  return names;
}

BackendSelection make_backend(DeviceChoice choice, int threads, uint64_t device_memory_mb, int slot,
                              std::function<void(const std::string&)> report) {
  if (threads <= 0) threads = omp_get_num_procs();
  BackendSelection selection;
#if defined(DUMPCMP_HAVE_DEVICE)
  DeviceOptions options;
  options.threads = threads;
  options.slot = slot;
  if (device_memory_mb > 0) options.memory_budget = device_memory_mb << 20;
  options.budget_from_free_memory = device_memory_mb == 0;
  if (choice == DeviceChoice::kThrustOmp) {
    selection.backend = make_thrust_omp_backend(options);
    return selection;
  }
  if (choice == DeviceChoice::kAuto && cuda_backend_built()) {
    // Nothing touches CUDA here: the device is made only if the plan makes it worth trying.
    auto make_device = [options](std::string& why_not) {
      return make_cuda_backend(options, why_not);
    };
    selection.backend = std::make_unique<AutoBackend>(std::make_unique<CpuBackend>(threads),
                                                      make_device, threads, std::move(report));
    return selection;
  }
  if (choice == DeviceChoice::kCuda) {
    std::string why;
    std::unique_ptr<Backend> cuda = make_cuda_backend(options, why);
    if (!cuda) throw Error(ExitCode::kDevice, "--device cuda: " + why);
    selection.backend = std::move(cuda);
    return selection;
  }
  if (choice == DeviceChoice::kAuto)
    selection.notice = "dumpcmp: built without CUDA; using the cpu backend";
#else
  (void)device_memory_mb;
  (void)slot;
  (void)report;
  if (choice == DeviceChoice::kCuda || choice == DeviceChoice::kThrustOmp) {
    throw Error(ExitCode::kDevice,
                "this dumpcmp was built without the device backends "
                "(DUMPCMP_CUDA=OFF or no CUDA toolkit)");
  }
  if (choice == DeviceChoice::kAuto)
    selection.notice = "dumpcmp: built without CUDA; using the cpu backend";
#endif
  selection.backend = std::make_unique<CpuBackend>(threads);
  return selection;
}

}  // namespace dumpcmp
