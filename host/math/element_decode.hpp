#pragma once
// Bit-exact decoders of the narrow floating types msaccucmp reads (docs/formats.md §2), shared by
// the CPU backend and the device backends. Each returns the float32 value msaccucmp compares.
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"

namespace dumpcmp {

DUMPCMP_HD inline float float_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Exact power-of-two scaling without libm; every caller stays inside float32's normal exponents.
DUMPCMP_HD inline float ldexp2(float mantissa, int exponent) {
  return mantissa * float_from_bits(static_cast<uint32_t>(exponent + 127) << 23);
}

// float32 to IEEE binary16, round to nearest even, subnormals kept (numpy's npy_float_to_half):
// for fp16 arithmetic done in float32 and the float16 files dumpcmp writes.
inline uint16_t encode_fp16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u)
    return static_cast<uint16_t>(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504
  if (abs < 0x38800000u) {  // a binary16 subnormal, or zero
    if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
    const uint32_t shift = 126 - (abs >> 23);  // down to the 2^-24 grid
    const uint32_t m = (abs & 0x7fffffu) | 0x800000u;
    uint32_t h = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (abs >> 13) - (112u << 10);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

// IEEE binary16 to float32 (exact).
DUMPCMP_HD inline float decode_fp16(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x3FFu;
  uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalise into a float32 normal.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mant & 0x3FFu) << 13);
  }
  return float_from_bits(bits);
}

// bfloat16 widens exactly: its bits are the top half of a float32.
DUMPCMP_HD inline float decode_bf16(uint16_t b) {
  return float_from_bits(static_cast<uint32_t>(b) << 16);
}

// float8 e4m3fn as msaccucmp decodes it: no NaN (0x7F decodes to 480), a quirk kept on purpose.
DUMPCMP_HD inline float decode_fp8_e4m3fn(uint8_t b) {
  const float sign = (b & 0x80u) ? -1.0f : 1.0f;
  const int e = (b >> 3) & 0xF;
  const int m = b & 0x7;
  if (e == 0) return sign * ldexp2(static_cast<float>(m) / 8.0f, -6);
  return sign * ldexp2(1.0f + static_cast<float>(m) / 8.0f, e - 7);
}

// float8 e5m2: exponent 31 is +inf (sign ignored, as in msaccucmp) or NaN.
DUMPCMP_HD inline float decode_fp8_e5m2(uint8_t b) {
  const float sign = (b & 0x80u) ? -1.0f : 1.0f;
  const int e = (b >> 2) & 0x1F;
  const int m = b & 0x3;
  if (e == 31) return m != 0 ? float_from_bits(0x7FC00000u) : float_from_bits(0x7F800000u);
  if (e == 0) return sign * ldexp2(static_cast<float>(m) / 4.0f, -14);
  return sign * ldexp2(1.0f + static_cast<float>(m) / 4.0f, e - 15);
}

// HiFloat8: a variable split between exponent and mantissa chosen by a prefix ("dot") code.
DUMPCMP_HD inline float decode_hifloat8(uint8_t b) {
  if (b == 0x00u) return 0.0f;
  if (b == 0x6Fu || b == 0xEFu) return float_from_bits(0x7F800000u);
  if (b == 0x80u) return float_from_bits(0x7FC00000u);
  const float sign = (b & 0x80u) ? -1.0f : 1.0f;
  const int d = b & 0x7F;
  int dot;
  if ((d & 0x60) == 0x60) {
    dot = 4;
  } else if ((d & 0x60) == 0x40) {
    dot = 3;
  } else if ((d & 0x60) == 0x20) {
    dot = 2;
  } else if ((d & 0x70) == 0x10) {
    dot = 1;
  } else if ((d & 0x78) == 0x08) {
    dot = 0;
  } else {
    return sign * ldexp2(1.0f, (b & 7) - 23);  // dot -1: denormal range
  }
  const int eb = dot;
  const int mb = 5 - dot;
  int exponent = 0;
  if (eb > 0) {
    const int eraw = (d >> mb) & ((1 << eb) - 1);
    const int magnitude = (1 << (eb - 1)) + (eraw & ((1 << (eb - 1)) - 1));
    exponent = ((eraw >> (eb - 1)) != 0) ? -magnitude : magnitude;
  }
  const float mantissa =
      1.0f + static_cast<float>(d & ((1 << mb) - 1)) / static_cast<float>(1 << mb);
  return sign * ldexp2(mantissa, exponent);
}

}  // namespace dumpcmp
