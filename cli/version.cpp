#include "version.hpp"

#include "backend/backend.hpp"
#include "scale/world.hpp"

namespace dumpcmp::cli {
namespace {

// The widest x86 or ARM vector extension the compiler was allowed to use for this binary.
const char* simd_target() {
#if defined(__AVX512F__)
  return "AVX-512";
#elif defined(__AVX2__)
  return "AVX2";
#elif defined(__SSE4_2__)
  return "SSE4.2";
#elif defined(__ARM_FEATURE_SVE)
  return "SVE";
#elif defined(__ARM_NEON)
  return "NEON";
#else
  return "scalar";
#endif
}

}  // namespace

std::string version_text() {
  return std::string("dumpcmp ") + DUMPCMP_VERSION + "\nbackends: " + built_backends() +
         "\nscale-out: " + mpi_build_info() + "\nSIMD: " + simd_target() +
         " (chosen when built; -DDUMPCMP_NATIVE=" + DUMPCMP_NATIVE_TEXT + ")";
}

}  // namespace dumpcmp::cli
