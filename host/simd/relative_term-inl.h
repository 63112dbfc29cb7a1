// math/accumulator.hpp's detail::relative_term as Highway vector code, shared by the first-pass
// lift (MaxRelativeError and its sums) and --quantiles' error keys, so both see the same errors.
// Included once per SIMD target (Highway's -inl.h guard).
#if defined(DUMPCMP_SIMD_RELATIVE_TERM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DUMPCMP_SIMD_RELATIVE_TERM_INL_H_
#undef DUMPCMP_SIMD_RELATIVE_TERM_INL_H_
#else
#define DUMPCMP_SIMD_RELATIVE_TERM_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// |x / y - 1| on every lane where |y| > 2^-52 (the same test in float32 as in double: 2^-52 is
// exact), else +0; a NaN golden gives 0 too.
template <class D>
HWY_INLINE hn::Vec<D> RelativeTerm(D d, hn::Vec<D> x, hn::Vec<D> y) {
  const auto term = hn::Abs(hn::Sub(hn::Div(x, y), hn::Set(d, 1.0f)));
  return hn::IfThenElseZero(hn::Gt(hn::Abs(y), hn::Set(d, 0x1p-52f)), term);
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DUMPCMP_SIMD_RELATIVE_TERM_INL_H_
