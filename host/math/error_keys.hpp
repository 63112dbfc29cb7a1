#pragma once
// --quantiles' per-element errors (quantiles/, docs/quantiles.md) as keys: the bits of |x - y|
// and of the relative error term, both in float32 as the first pass computes them, with the sign
// bit cleared. A non-negative float orders as its bits do, so keys sort as the errors; every key
// above +inf's is a NaN.
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"
#include "math/accumulator.hpp"

namespace dumpcmp {

inline constexpr uint32_t kInfKey = 0x7F800000u;

DUMPCMP_HD inline uint32_t magnitude_key(float v) {
  uint32_t k;
  std::memcpy(&k, &v, sizeof k);
  return k & 0x7FFFFFFFu;
}

DUMPCMP_HD inline uint32_t abs_error_key(float x, float y) { return magnitude_key(x - y); }

DUMPCMP_HD inline uint32_t relative_error_key(float x, float y) {
  return magnitude_key(detail::relative_term(x, y));
}

// The histogram bin of a key: 0 for a zero error, then one more for each of the ascending edge
// keys at or below it, and one more for a NaN (above +inf's key).
DUMPCMP_HD inline uint32_t error_bin(uint32_t key, const uint32_t* edges, int edge_count) {
  uint32_t bin = (key != 0) + (key > kInfKey);
  for (int e = 0; e < edge_count; ++e) bin += key >= edges[e];
  return bin;
}

}  // namespace dumpcmp
