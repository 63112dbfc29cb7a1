// binary16 and bfloat16 bits -> float32 lanes as Highway vector code, shared by the decode kernels
// (narrow_decode.cpp) and the chunk lifts (chunk_lift.cpp), which read 16-bit sides in place.
// Included once per SIMD target (Highway's -inl.h guard).
#if defined(DUMPCMP_SIMD_LOAD_HALVES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DUMPCMP_SIMD_LOAD_HALVES_INL_H_
#undef DUMPCMP_SIMD_LOAD_HALVES_INL_H_
#else
#define DUMPCMP_SIMD_LOAD_HALVES_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// AVX2 and AVX-512 convert with F16C's vcvtph2ps, exact for every pattern. Highway 1.0.3's
// emulation elsewhere turns inf and NaN into finite numbers, so other targets rebias the bits
// themselves: exponent and mantissa shifted into a float32 and scaled by 2^112 (exact, subnormal
// halves included), inf and NaN given the all-ones exponent, then the sign.
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
template <class DF>
HWY_INLINE hn::Vec<DF> LoadHalves(DF df, const uint8_t* data) {
  const hn::Rebind<hwy::float16_t, DF> dh;
  return hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(data)));
}
#else
template <class DF>
HWY_INLINE hn::Vec<DF> LoadHalves(DF df, const uint8_t* data) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const hn::Rebind<uint16_t, DF> d16;
  const auto h = hn::PromoteTo(du, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(data)));
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)));
  const auto magnitude = hn::And(h, hn::Set(du, 0x7FFFu));
  const auto shifted = hn::ShiftLeft<13>(magnitude);
  const auto finite = hn::BitCast(du, hn::Mul(hn::BitCast(df, shifted), hn::Set(df, 0x1p112f)));
  const auto special = hn::Or(shifted, hn::Set(du, 0x7F800000u));
  const auto is_special = hn::RebindMask(
      du, hn::Gt(hn::BitCast(di, magnitude), hn::Set(di, 0x7BFF)));  // exponent all ones
  return hn::BitCast(df, hn::Or(sign, hn::IfThenElse(is_special, special, finite)));
}
#endif

// bfloat16 is the top half of a float32: widen and shift, exact for every pattern.
template <class DF>
HWY_INLINE hn::Vec<DF> LoadBFloat16s(DF df, const uint8_t* data) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Rebind<uint16_t, DF> d16;
  const auto bits = hn::LoadU(d16, reinterpret_cast<const uint16_t*>(data));
  return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du, bits)));
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DUMPCMP_SIMD_LOAD_HALVES_INL_H_
