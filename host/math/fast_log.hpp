#pragma once
// Natural log of a positive, finite, normal double without branches or libm, so the KLD lane loop
// vectorises (libm's log is a call per element). The reduction and polynomial are fdlibm's e_log.c
// (x = 2^k (1 + f), log(1 + f) from s = f / (2 + f)); error below 1 ulp.
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"

namespace dumpcmp {

// fdlibm's constants: ln 2 split in two, and the polynomial's coefficients (also used by the SIMD
// log in simd/vector_log-inl.h).
namespace fdlibm_log {
constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLg1 = 6.666666666666735130e-01, kLg2 = 3.999999999940941908e-01,
                 kLg3 = 2.857142874366239149e-01, kLg4 = 2.222219843214978396e-01,
                 kLg5 = 1.818357216161805012e-01, kLg6 = 1.531383769920937332e-01,
                 kLg7 = 1.479819860511658591e-01;
}  // namespace fdlibm_log

DUMPCMP_HD inline double fast_log(double x) {
  using namespace fdlibm_log;
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  // The biased exponent as a double without an int64 -> double conversion (AVX2 has none, and
  // one scalar conversion per element kept this loop from vectorising): 2^52 + e, minus 2^52.
  const uint64_t exponent_bits = (bits >> 52) | 0x4330000000000000ull;
  double biased;
  std::memcpy(&biased, &exponent_bits, sizeof biased);
  const uint64_t mantissa_bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  double m;  // in [1, 2)
  std::memcpy(&m, &mantissa_bits, sizeof m);
  const bool high = m > 1.4142135623730951;  // keep 1 + f in [sqrt(2)/2, sqrt(2))
  m = high ? m * 0.5 : m;
  // Exact: small integers.
  const double k = (biased - 4503599627370496.0) - (high ? 1022.0 : 1023.0);
  const double f = m - 1.0;
  const double hfsq = 0.5 * f * f;
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double t1 = w * (kLg2 + w * (kLg4 + w * kLg6));
  const double t2 = z * (kLg1 + w * (kLg3 + w * (kLg5 + w * kLg7)));
  const double r = t2 + t1;
  return k * kLn2Hi - ((hfsq - (s * (hfsq + r) + k * kLn2Lo)) - f);
}

}  // namespace dumpcmp
