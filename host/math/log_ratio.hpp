#pragma once
// log(p / q) in float32 for positive, finite, normal float32 p and q (KLD's terms), without libm,
// branches or the rounding of p / q: the reduction takes both exponents and mantissas, and
// p / q = 2^k (mp / mq) with mp / mq in [sqrt(2)/2, sqrt(2)]. Then log(mp / mq) = log(1 + f) with
// s = f / (2 + f) = (mp - mq) / (mp + mq), whose numerator is exact (Sterbenz: mp and mq are within
// a factor of 2), so s is rounded twice, by the sum and the quotient. The polynomial in s is
// fdlibm's e_logf.c: log(1 + f) = 2s + s R(s^2). Within 2 ulp of the exact log. Float32, not
// double: KLD's lift is bound by its arithmetic, and the caller's (double) p * log_ratio is exact,
// so a term's only error is this 2^-22 relative one (docs/algorithms.md 2.5).
// simd/log_ratio-inl.h is the same operations on vector lanes, in the same order.
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"
#include "math/element_decode.hpp"

namespace dumpcmp {

// fdlibm's e_logf.c constants (FreeBSD's): ln 2 split in two (k * kLn2Hi is exact for |k| < 2^7),
// and the polynomial's coefficients.
namespace fdlibm_logf {
constexpr float kLn2Hi = 0x1.62e3p-1f, kLn2Lo = 0x1.2fefa2p-17f;
constexpr float kLg1 = 0xaaaaaa.0p-24f, kLg2 = 0xccce13.0p-25f, kLg3 = 0x91e9ee.0p-25f,
                kLg4 = 0xf89e26.0p-26f;
}  // namespace fdlibm_logf

namespace detail {

DUMPCMP_HD inline uint32_t bits_of(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// The biased exponent plus 2^23, as a float (exact), so that exponents subtract without an int
// to float conversion.
DUMPCMP_HD inline float biased_exponent(uint32_t bits) {
  return float_from_bits((bits >> 23) | 0x4B000000u);
}

DUMPCMP_HD inline float mantissa(uint32_t bits) {  // in [1, 2)
  return float_from_bits((bits & 0x007FFFFFu) | 0x3F800000u);
}

}  // namespace detail

DUMPCMP_HD inline float log_ratio(float p, float q) {
  using namespace fdlibm_logf;
  const uint32_t bp = detail::bits_of(p), bq = detail::bits_of(q);
  float mp = detail::mantissa(bp);
  const float mq = detail::mantissa(bq);
  // Bring mp / mq into about [sqrt(2)/2, sqrt(2)]: the bounds need not be exact, only within a
  // factor of 2, which the float32 products keep.
  const bool high = mp > mq * 1.41421356f, low = mp < mq * 0.707106781f;
  mp = high ? mp * 0.5f : (low ? mp + mp : mp);
  // Exact: small integers.
  const float k = (detail::biased_exponent(bp) - detail::biased_exponent(bq)) +
                  (high ? 1.0f : (low ? -1.0f : 0.0f));
  const float s = (mp - mq) / (mp + mq);  // the numerator exact (Sterbenz)
  const float z = s * s, w = z * z;
  const float r = z * (kLg1 + w * kLg3) + w * (kLg2 + w * kLg4);
  return k * kLn2Hi + ((s + s) + (s * r + k * kLn2Lo));
}

// KLD's term p * log(p / q) in double: the product of two floats is exact there, so the term
// carries only log_ratio's error (a float32 product would add its own rounding).
DUMPCMP_HD inline double kld_term(float p, float q) {
  return static_cast<double>(p) * log_ratio(p, q);
}

}  // namespace dumpcmp
