#pragma once
// Test tensors of the parity suites: raw bytes of a dtype filled from floats, with special values,
// and NC1HWC0 layout maps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "layout/layout_map.hpp"
#include "math/element_source.hpp"

namespace dumpcmp {

// A tensor's raw bytes and dtype, filled from floats with specials sprinkled in.
struct Tensor {
  DType dtype;
  std::vector<uint8_t> bytes;
  int64_t count;
  ElementSource source() const { return {bytes.data(), dtype, count}; }
};

inline uint16_t to_bits16(float f, bool bf16) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if (bf16) return static_cast<uint16_t>(b >> 16);
  // Truncating float -> half, enough for test data (specials map to specials).
  const uint32_t sign = (b >> 16) & 0x8000u;
  const int e = static_cast<int>((b >> 23) & 0xFF);
  if (e == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | ((b & 0x7FFFFFu) ? 0x200u : 0u));
  const int he = e - 127 + 15;
  if (he >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
  if (he <= 0) return static_cast<uint16_t>(sign);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(he) << 10) | ((b >> 13) & 0x3FFu));
}

inline Tensor make_tensor(DType dtype, const std::vector<float>& v) {
  Tensor t{dtype, {}, static_cast<int64_t>(v.size())};
  const std::size_t n = v.size();
  switch (dtype) {
    case DType::kFloat:
      t.bytes.resize(4 * n);
      if (n) std::memcpy(t.bytes.data(), v.data(), 4 * n);
      break;
    case DType::kFloat16:
    case DType::kBFloat16:
      t.bytes.resize(2 * n);
      for (std::size_t i = 0; i < n; ++i) {
        const uint16_t h = to_bits16(v[i], dtype == DType::kBFloat16);
        std::memcpy(t.bytes.data() + 2 * i, &h, 2);
      }
      break;
    case DType::kDouble:
      t.bytes.resize(8 * n);
      for (std::size_t i = 0; i < n; ++i) {
        const double d = v[i];
        std::memcpy(t.bytes.data() + 8 * i, &d, 8);
      }
      break;
    case DType::kInt32:
      t.bytes.resize(4 * n);
      for (std::size_t i = 0; i < n; ++i) {
        const int32_t k = std::isfinite(v[i]) ? static_cast<int32_t>(v[i] * 1000) : 7;
        std::memcpy(t.bytes.data() + 4 * i, &k, 4);
      }
      break;
    case DType::kInt8:
    case DType::kBool:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E5M2:
    case DType::kHiFloat8:
      t.bytes.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        const float f = std::isfinite(v[i]) ? v[i] : 100.0f;
        t.bytes[i] =
            dtype == DType::kBool ? (f > 0) : static_cast<uint8_t>(static_cast<int>(f * 37) & 0xFF);
      }
      break;
    default:
      ADD_FAILURE() << "unhandled dtype";
  }
  return t;
}

inline std::vector<float> values(int64_t n, int special, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& f : v) f = normal(rng);
  if (n == 0) return v;
  const std::size_t at = static_cast<std::size_t>(n / 2);
  switch (special) {
    case 1:
      v[at] = NAN;
      break;
    case 2:
      v[at] = INFINITY;
      break;
    case 3:
      v[at] = -INFINITY;
      break;
    case 4:
      v[at] = -0.0f;
      v[0] = 1e-40f;
      break;  // negative zero and a subnormal
    case 5:
      v[at] = 3.4e38f;
      break;  // float max: squares overflow float32
    case 6:
      std::fill(v.begin(), v.end(), 0.0f);
      break;
    default:
      break;
  }
  return v;
}

// Elements of an NC1HWC0 payload: C padded to C1 * 16.
inline int64_t nc1hwc0_elements(int64_t n, int64_t c, int64_t h, int64_t w) {
  return n * ((c + 15) / 16) * h * w * 16;
}

// The NC1HWC0 -> NCHW restore as a LayoutMap (C padded to C1 * 16): element (n, c, h, w) lives at
// ((n * C1 + c / 16) * H + h) * W * 16 + w * 16 + c % 16.
inline LayoutMap nc1hwc0_to_nchw(int64_t n, int64_t c, int64_t h, int64_t w) {
  LayoutMap m;
  m.identity = false;
  m.count = n * c * h * w;
  m.rank = 4;
  const int64_t dims[4] = {n, c, h, w};
  for (int k = 0; k < 4; ++k) m.dim[k] = dims[k];
  m.stride_lo[0] = nc1hwc0_elements(1, c, h, w);
  m.split[1] = 16;
  m.stride_hi[1] = h * w * 16;
  m.stride_lo[1] = 1;
  m.stride_lo[2] = w * 16;
  m.stride_lo[3] = 16;
  return m;
}

// A pair whose x side is read through `map` from its padded payload, y holding map.count elements;
// `swapped`: the map on the golden side instead.
inline TensorPairJob layout_job(const Tensor& x, const Tensor& y, const LayoutMap& map,
                                bool swapped) {
  TensorPairJob job;
  job.x = x.source();
  job.x.layout = &map;
  job.x.source_count = x.count;
  job.x.count = map.count;
  job.y = y.source();
  if (swapped) std::swap(job.x, job.y);
  return job;
}

}  // namespace dumpcmp
