#pragma once
// What a dumpcmp_session of dumpcmp_resident.h holds: one backend's reducer, kept between calls
// (resident_api.cpp opens it; live_api.cpp reduces with it too).
#include <cstddef>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "device_backends.hpp"

struct dumpcmp_session {
  std::unique_ptr<dumpcmp::ResidentReducer> resident;  // cuda or thrust-omp
  std::unique_ptr<dumpcmp::Backend> cpu;
  int threads = 0;  // cpu: its threads, also --quantiles'
};

namespace dumpcmp {

// Copies `text` into a caller's buffer of `size` bytes, cut to fit (messages, names, lines).
void copy_to_caller(char* out, std::size_t size, const std::string& text);

}  // namespace dumpcmp
