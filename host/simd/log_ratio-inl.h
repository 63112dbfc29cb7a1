// math/log_ratio.hpp as Highway vector code: the same operations in the same order on each lane,
// so every lane gives log_ratio's bits. Included once per SIMD target (Highway's -inl.h guard).
#if defined(DUMPCMP_SIMD_LOG_RATIO_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DUMPCMP_SIMD_LOG_RATIO_INL_H_
#undef DUMPCMP_SIMD_LOG_RATIO_INL_H_
#else
#define DUMPCMP_SIMD_LOG_RATIO_INL_H_
#endif

#include <hwy/highway.h>

#include "math/log_ratio.hpp"

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// log_ratio(p, q) on every lane.
template <class DF>
HWY_INLINE hn::Vec<DF> LogRatio(DF df, hn::Vec<DF> p, hn::Vec<DF> q) {
  const hn::RebindToUnsigned<DF> du;
  const auto c = [df](float v) { return hn::Set(df, v); };
  const auto bp = hn::BitCast(du, p), bq = hn::BitCast(du, q);
  const auto exponent = [&](decltype(bp) bits) {
    return hn::BitCast(df, hn::Or(hn::ShiftRight<23>(bits), hn::Set(du, 0x4B000000u)));
  };
  const auto mantissa = [&](decltype(bp) bits) {
    return hn::BitCast(df,
                       hn::Or(hn::And(bits, hn::Set(du, 0x007FFFFFu)), hn::Set(du, 0x3F800000u)));
  };
  auto mp = mantissa(bp);
  const auto mq = mantissa(bq);
  const auto high = hn::Gt(mp, hn::Mul(mq, c(1.41421356f)));
  const auto low = hn::Lt(mp, hn::Mul(mq, c(0.707106781f)));
  mp = hn::IfThenElse(high, hn::Mul(mp, c(0.5f)), hn::IfThenElse(low, hn::Add(mp, mp), mp));
  const auto k = hn::Add(hn::Sub(exponent(bp), exponent(bq)),
                         hn::IfThenElse(high, c(1.0f), hn::IfThenElse(low, c(-1.0f), c(0.0f))));
  const auto s = hn::Div(hn::Sub(mp, mq), hn::Add(mp, mq));
  const auto z = hn::Mul(s, s);
  const auto w = hn::Mul(z, z);
  // No MulAdd: log_ratio rounds each product and sum, and so must every lane here.
  const auto r =
      hn::Add(hn::Mul(z, hn::Add(c(fdlibm_logf::kLg1), hn::Mul(w, c(fdlibm_logf::kLg3)))),
              hn::Mul(w, hn::Add(c(fdlibm_logf::kLg2), hn::Mul(w, c(fdlibm_logf::kLg4)))));
  return hn::Add(
      hn::Mul(k, c(fdlibm_logf::kLn2Hi)),
      hn::Add(hn::Add(s, s), hn::Add(hn::Mul(s, r), hn::Mul(k, c(fdlibm_logf::kLn2Lo)))));
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DUMPCMP_SIMD_LOG_RATIO_INL_H_
