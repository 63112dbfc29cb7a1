// math/log_ratio.hpp as Highway vector code: the same operations in the same order on each lane,
// so every lane gives log_ratio's bits. The float32 reduction runs on whole float vectors, the
// double polynomial on each of their kPieces double pieces. Included once per SIMD target
// (Highway's -inl.h guard).
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

// log_ratio's float32 part for vectors p and q: p / q = 2^k (mp / mq), and s's exact numerator.
template <class VF>
struct LogRatioParts {
  VF k, mp, mq, numerator;
};

template <class DF>
HWY_INLINE LogRatioParts<hn::Vec<DF>> ReduceLogRatio(DF df, hn::Vec<DF> p, hn::Vec<DF> q) {
  const hn::RebindToUnsigned<DF> du;
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
  const auto high = hn::Gt(mp, hn::Mul(mq, hn::Set(df, 1.41421356f)));
  const auto low = hn::Lt(mp, hn::Mul(mq, hn::Set(df, 0.707106781f)));
  mp = hn::IfThenElse(high, hn::Mul(mp, hn::Set(df, 0.5f)),
                      hn::IfThenElse(low, hn::Add(mp, mp), mp));
  const auto k = hn::Add(hn::Sub(exponent(bp), exponent(bq)),
                         hn::IfThenElse(high, hn::Set(df, 1.0f),
                                        hn::IfThenElse(low, hn::Set(df, -1.0f), hn::Zero(df))));
  return {k, mp, mq, hn::Sub(mp, mq)};
}

// log_ratio's double part for one piece, given the parts widened to doubles.
template <class DD>
HWY_INLINE hn::Vec<DD> FinishLogRatio(DD d, hn::Vec<DD> k, hn::Vec<DD> mp, hn::Vec<DD> mq,
                                      hn::Vec<DD> numerator) {
  const auto c = [d](double v) { return hn::Set(d, v); };
  const auto s = hn::Div(numerator, hn::Add(mp, mq));
  const auto z = hn::Mul(s, s);
  const auto w = hn::Mul(z, z);
  // No MulAdd: log_ratio rounds each product and sum, and so must every lane here.
  const auto t1 = hn::Mul(
      w, hn::Add(c(fdlibm_log::kLg2),
                 hn::Mul(w, hn::Add(c(fdlibm_log::kLg4), hn::Mul(w, c(fdlibm_log::kLg6))))));
  const auto t2 = hn::Mul(
      z, hn::Add(c(fdlibm_log::kLg1),
                 hn::Mul(w, hn::Add(c(fdlibm_log::kLg3),
                                    hn::Mul(w, hn::Add(c(fdlibm_log::kLg5),
                                                       hn::Mul(w, c(fdlibm_log::kLg7))))))));
  const auto r = hn::Add(t2, t1);
  return hn::Add(hn::Mul(k, c(fdlibm_log::kLn2Hi)),
                 hn::Add(hn::Add(s, s), hn::Add(hn::Mul(s, r), hn::Mul(k, c(fdlibm_log::kLn2Lo)))));
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DUMPCMP_SIMD_LOG_RATIO_INL_H_
