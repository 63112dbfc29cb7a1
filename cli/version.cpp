#include "version.hpp"

#include "backend/backend.hpp"
#include "scale/world.hpp"
#include "simd/simd_target.hpp"

namespace dumpcmp::cli {

std::string version_text() {
  return std::string("dumpcmp ") + DUMPCMP_VERSION + "\nbackends: " + built_backends() +
         "\nscale-out: " + mpi_build_info() + "\nSIMD: " + simd::chosen_target() +
         " (chosen at run time from " + simd::compiled_targets() +
         "; DUMPCMP_SIMD limits it; -DDUMPCMP_NATIVE=" + DUMPCMP_NATIVE_TEXT + ")";
}

}  // namespace dumpcmp::cli
