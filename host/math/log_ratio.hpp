#pragma once
// log(p / q) for positive, finite, normal float32 p and q (KLD's terms), without libm, branches or
// the rounding of p / q, and with one division: the reduction takes both exponents and mantissas,
// and p / q = 2^k (mp / mq) with mp / mq in [sqrt(2)/2, sqrt(2)]. Then log(mp / mq) = log(1 + f)
// with s = f / (2 + f) = (mp - mq) / (mp + mq), whose numerator is exact in float32 (Sterbenz: mp
// and mq are within a factor of 2) and denominator exact in double (two 24-bit mantissas), so s is
// rounded once. The polynomial in s is fdlibm's e_log.c: log(1 + f) = 2s + s R(s^2), error below
// 2 ulp. simd/log_ratio-inl.h is the same operations on vector lanes, in the same order.
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"
#include "math/element_decode.hpp"

namespace dumpcmp {

// fdlibm's constants: ln 2 split in two, and the polynomial's coefficients.
namespace fdlibm_log {
constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLg1 = 6.666666666666735130e-01, kLg2 = 3.999999999940941908e-01,
                 kLg3 = 2.857142874366239149e-01, kLg4 = 2.222219843214978396e-01,
                 kLg5 = 1.818357216161805012e-01, kLg6 = 1.531383769920937332e-01,
                 kLg7 = 1.479819860511658591e-01;
}  // namespace fdlibm_log

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

DUMPCMP_HD inline double log_ratio(float p, float q) {
  using namespace fdlibm_log;
  const uint32_t bp = detail::bits_of(p), bq = detail::bits_of(q);
  float mp = detail::mantissa(bp);
  const float mq = detail::mantissa(bq);
  // Bring mp / mq into about [sqrt(2)/2, sqrt(2)]: the bounds need not be exact, only within a
  // factor of 2, which the float32 products keep.
  const bool high = mp > mq * 1.41421356f, low = mp < mq * 0.707106781f;
  mp = high ? mp * 0.5f : (low ? mp + mp : mp);
  // Exact: small integers.
  const float k_float = (detail::biased_exponent(bp) - detail::biased_exponent(bq)) +
                        (high ? 1.0f : (low ? -1.0f : 0.0f));
  const float numerator = mp - mq;  // exact (Sterbenz)
  const double k = k_float;
  const double s = static_cast<double>(numerator) / (static_cast<double>(mp) + mq);
  const double z = s * s, w = z * z;
  const double t1 = w * (kLg2 + w * (kLg4 + w * kLg6));
  const double t2 = z * (kLg1 + w * (kLg3 + w * (kLg5 + w * kLg7)));
  const double r = t2 + t1;
  return k * kLn2Hi + ((s + s) + (s * r + k * kLn2Lo));
}

}  // namespace dumpcmp
