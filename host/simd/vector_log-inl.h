// math/fast_log.hpp as Highway vector code: the same operations in the same order on each lane,
// so every lane gives fast_log's bits. Included once per SIMD target (Highway's -inl.h guard).
#if defined(DUMPCMP_SIMD_VECTOR_LOG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DUMPCMP_SIMD_VECTOR_LOG_INL_H_
#undef DUMPCMP_SIMD_VECTOR_LOG_INL_H_
#else
#define DUMPCMP_SIMD_VECTOR_LOG_INL_H_
#endif

#include <hwy/highway.h>

#include "math/fast_log.hpp"

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Natural log of positive, finite, normal doubles (fdlibm's e_log.c reduction and polynomial).
template <class D>
HWY_INLINE hn::Vec<D> FastLog(D d, hn::Vec<D> x) {
  const hn::RebindToUnsigned<D> du;
  const auto bits = hn::BitCast(du, x);
  // The biased exponent as a double: 2^52 + e, minus 2^52 (exact).
  const auto biased =
      hn::BitCast(d, hn::Or(hn::ShiftRight<52>(bits), hn::Set(du, 0x4330000000000000ull)));
  auto m = hn::BitCast(d, hn::Or(hn::And(bits, hn::Set(du, 0x000FFFFFFFFFFFFFull)),
                                 hn::Set(du, 0x3FF0000000000000ull)));  // in [1, 2)
  const auto high = hn::Gt(m, hn::Set(d, 1.4142135623730951));
  m = hn::IfThenElse(high, hn::Mul(m, hn::Set(d, 0.5)), m);
  const auto k = hn::Sub(hn::Sub(biased, hn::Set(d, 4503599627370496.0)),
                         hn::IfThenElse(high, hn::Set(d, 1022.0), hn::Set(d, 1023.0)));
  const auto f = hn::Sub(m, hn::Set(d, 1.0));
  const auto hfsq = hn::Mul(hn::Mul(hn::Set(d, 0.5), f), f);
  const auto s = hn::Div(f, hn::Add(hn::Set(d, 2.0), f));
  const auto z = hn::Mul(s, s);
  const auto w = hn::Mul(z, z);
  const auto c = [d](double v) { return hn::Set(d, v); };
  // No MulAdd: fast_log rounds each product and sum, and so must every lane here.
  const auto t1 = hn::Mul(
      w, hn::Add(c(fdlibm_log::kLg2),
                 hn::Mul(w, hn::Add(c(fdlibm_log::kLg4), hn::Mul(w, c(fdlibm_log::kLg6))))));
  const auto t2 = hn::Mul(
      z, hn::Add(c(fdlibm_log::kLg1),
                 hn::Mul(w, hn::Add(c(fdlibm_log::kLg3),
                                    hn::Mul(w, hn::Add(c(fdlibm_log::kLg5),
                                                       hn::Mul(w, c(fdlibm_log::kLg7))))))));
  const auto r = hn::Add(t2, t1);
  const auto inner = hn::Sub(
      hn::Sub(hfsq, hn::Add(hn::Mul(s, hn::Add(hfsq, r)), hn::Mul(k, c(fdlibm_log::kLn2Lo)))), f);
  return hn::Sub(hn::Mul(k, c(fdlibm_log::kLn2Hi)), inner);
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DUMPCMP_SIMD_VECTOR_LOG_INL_H_
