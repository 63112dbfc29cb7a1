#pragma once
// Deterministic pseudo-random tensor contents for dumpcmp_gen.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/dtype.hpp"
#include "io/dump_writer.hpp"

namespace dumpcmp {

// xorshift64*: fast, reproducible, good enough for test data.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t state_;
};

// Values roughly N(0,1)-shaped; "noisy" adds relative noise, as a drifting NPU result would have.
class SyntheticValues {
 public:
  SyntheticValues(uint64_t seed, double noise)
      : rng_(seed), noise_rng_(seed ^ 0xABCDEF), noise_(noise) {}

  std::vector<uint8_t> encode(DType dtype, int64_t n, bool noisy) {
    std::vector<uint8_t> bytes(static_cast<std::size_t>(n) * dtype_storage_size(dtype));
    for (int64_t i = 0; i < n; ++i) {
      double v = (rng_.uniform() + rng_.uniform() + rng_.uniform() - 1.5) * 2.0;
      if (noisy) v *= 1.0 + noise_ * (2.0 * noise_rng_.uniform() - 1.0);
      store(dtype, bytes.data(), i, v);
    }
    return bytes;
  }

  // The same sequence as float32 values (the NCHW content of a layout-converted tensor).
  std::vector<float> floats(int64_t n, bool noisy) {
    std::vector<float> out(static_cast<std::size_t>(n));
    for (auto& f : out) {
      double v = (rng_.uniform() + rng_.uniform() + rng_.uniform() - 1.5) * 2.0;
      if (noisy) v *= 1.0 + noise_ * (2.0 * noise_rng_.uniform() - 1.0);
      f = static_cast<float>(v);
    }
    return out;
  }

  static std::vector<uint8_t> encode_floats(DType dtype, const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * dtype_storage_size(dtype));
    for (std::size_t i = 0; i < values.size(); ++i) {
      store(dtype, bytes.data(), static_cast<int64_t>(i), values[i]);
    }
    return bytes;
  }

 private:
  static uint16_t to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int exp = static_cast<int>((x >> 23) & 0xFF) - 127 + 15;
    if (exp <= 0)
      return static_cast<uint16_t>(sign);  // tiny values flush to zero: fine for test data
    if (exp >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
    uint32_t h = sign | (static_cast<uint32_t>(exp) << 10) | ((x >> 13) & 0x3FFu);
    const uint32_t rest = x & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(h);
  }

  static void store(DType dtype, uint8_t* out, int64_t i, double v) {
    const auto f = static_cast<float>(v);
    switch (dtype) {
      case DType::kFloat:
        std::memcpy(out + 4 * i, &f, 4);
        break;
      case DType::kDouble:
        std::memcpy(out + 8 * i, &v, 8);
        break;
      case DType::kFloat16: {
        const uint16_t h = to_half(f);
        std::memcpy(out + 2 * i, &h, 2);
        break;
      }
      case DType::kBFloat16: {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        const auto b = static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
        std::memcpy(out + 2 * i, &b, 2);
        break;
      }
      case DType::kInt32: {
        const auto n = static_cast<int32_t>(std::lround(v * 100));
        std::memcpy(out + 4 * i, &n, 4);
        break;
      }
      case DType::kInt8:
        out[i] = static_cast<uint8_t>(static_cast<int8_t>(std::lround(v * 20)));
        break;
      case DType::kBool:
        out[i] = v > 0 ? 1 : 0;
        break;
      default:
        std::memset(out + dtype_storage_size(dtype) * static_cast<std::size_t>(i), 0,
                    dtype_storage_size(dtype));
    }
  }

  Rng rng_, noise_rng_;
  double noise_;
};

// Puts a NaN, an inf and a run of zeros into a float tensor (other dtypes keep their values).
inline void special_values(TensorSpec& t) {
  if (t.dtype != DType::kFloat || t.bytes.size() < 16) return;
  const float specials[] = {NAN, INFINITY, 0.0f, 0.0f};
  std::memcpy(t.bytes.data(), specials, sizeof specials);
}

}  // namespace dumpcmp
