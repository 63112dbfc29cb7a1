#pragma once
// dumpcmp_gen --fusion: an offline model as compiled for the NPU against its framework goldens,
// the main scenario of -f: a chain of conv-like ops whose NPU outputs are fp16 NC1HWC0 (channels
// padded to 16) and whose goldens are fp32 NCHW .npy files, with the atc JSON that maps them.
#include <cstdint>
#include <string>

namespace dumpcmp {

struct FusionSetOptions {
  std::string out;  // gets left/, right/ and model.json
  int ops = 8;
  int64_t elements = 1 << 20;  // NCHW elements per output (C = 24, H = W chosen to fit)
  double noise = 1e-3;
  uint64_t seed = 1;
};

// Returns the bytes written.
uint64_t write_fusion_set(const FusionSetOptions& options);

}  // namespace dumpcmp
