#pragma once
// `dumpcmp --version`: the release, and what this binary was built with (MPI, CUDA, SIMD).
#include <string>

namespace dumpcmp::cli {

std::string version_text();

}  // namespace dumpcmp::cli
