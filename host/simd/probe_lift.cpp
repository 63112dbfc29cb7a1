// Compiled once per SIMD target, like chunk_lift.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/probe_lift.cpp"
#include "simd/probe_lift.hpp"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>
#include <type_traits>

#include "math/element_decode.hpp"

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The relative error of lift_probe_chunk in T's vectors (dt), from float64 vectors converted to T.
template <class DT, class V>
V RelativeError(DT dt, V x, V y, V eps) {
  const auto shift = hn::IfThenElseZero(hn::Eq(y, hn::Zero(dt)), eps);
  const auto xs = hn::Add(x, shift), ys = hn::Add(y, shift);
  return hn::Abs(hn::Div(hn::Sub(xs, ys), ys));
}

template <bool kFloat32>
ProbeAccumulator LiftProbe(double* x, double* y, double* diff, int64_t n) {
  using T = std::conditional_t<kFloat32, float, double>;
  const hn::ScalableTag<double> dd;
  const hn::Rebind<T, decltype(dd)> dt;  // as many T lanes as double lanes
  const auto lanes = static_cast<int64_t>(hn::Lanes(dd));
  const auto eps = hn::Set(dt, kFloat32 ? T(1.1920928955078125e-07) : T(kEps64));
  const auto thousandth = hn::Set(dt, T(0.001)), five_thousandths = hn::Set(dt, T(0.005));
  auto max_abs = hn::Zero(dd);
  auto max_rel = hn::Zero(dt);
  uint64_t unmatched = 0, below1 = 0, below5 = 0, rel_nan = 0;
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    auto vx = hn::LoadU(dd, x + i), vy = hn::LoadU(dd, y + i);
    const auto x_nan = hn::IsNaN(vx), y_nan = hn::IsNaN(vy);
    const auto x_inf = hn::IsInf(vx), y_inf = hn::IsInf(vy);
    const auto special = hn::Or(hn::Or(x_nan, y_nan), hn::Or(x_inf, y_inf));
    if (!hn::AllFalse(dd, special)) {
      unmatched += hn::CountTrue(dd, hn::Or(hn::Xor(x_nan, y_nan), hn::Xor(x_inf, y_inf)));
      vx = hn::IfThenZeroElse(special, vx);
      vy = hn::IfThenZeroElse(special, vy);
      hn::StoreU(vx, dd, x + i);
      hn::StoreU(vy, dd, y + i);
    }
    const auto d = hn::Sub(vx, vy);
    hn::StoreU(d, dd, diff + i);
    max_abs = hn::Max(max_abs, hn::Abs(d));
    hn::Vec<decltype(dt)> r;
    if constexpr (kFloat32) {
      r = RelativeError(dt, hn::DemoteTo(dt, vx), hn::DemoteTo(dt, vy), eps);
    } else {
      r = RelativeError(dt, vx, vy, eps);
    }
    const auto r_nan = hn::IsNaN(r);
    rel_nan += hn::CountTrue(dt, r_nan);
    max_rel = hn::Max(max_rel, hn::IfThenZeroElse(r_nan, r));
    below1 += hn::CountTrue(dt, hn::Lt(r, thousandth));
    below5 += hn::CountTrue(dt, hn::Lt(r, five_thousandths));
  }
  // The rest through the scalar template, its results folded in.
  ProbeAccumulator a = dumpcmp::lift_probe_chunk<T>(x + i, y + i, diff + i, n - i);
  ProbeAccumulator v;
  v.n = static_cast<uint64_t>(i);
  v.unmatched_special = unmatched;
  v.max_abs = hn::GetLane(hn::MaxOfLanes(dd, max_abs));
  v.max_relative = static_cast<double>(hn::GetLane(hn::MaxOfLanes(dt, max_rel)));
  v.relative_nan = rel_nan > 0;
  v.below_thousandth = below1;
  v.below_five_thousandths = below5;
  a.merge(v);
  return a;
}

// Widening loads: float32, binary16 (through float32, exact) and bfloat16 (its bits are a float32's
// high half) into float64 lanes.
void Float32ToDouble(const uint8_t* bytes, int64_t n, double* out) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const auto lanes = static_cast<int64_t>(hn::Lanes(dd));
  const float* in = reinterpret_cast<const float*>(bytes);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::PromoteTo(dd, hn::LoadU(df, in + i)), dd, out + i);
  for (; i < n; ++i) {
    float v;
    std::memcpy(&v, bytes + 4 * i, 4);
    out[i] = v;
  }
}

void Float16ToDouble(const uint8_t* bytes, int64_t n, double* out) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<hwy::float16_t, decltype(dd)> dh;
  const auto lanes = static_cast<int64_t>(hn::Lanes(dd));
  const auto* in = reinterpret_cast<const hwy::float16_t*>(bytes);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::PromoteTo(dd, hn::PromoteTo(df, hn::LoadU(dh, in + i))), dd, out + i);
  for (; i < n; ++i)
    out[i] = decode_fp16(static_cast<uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8));
}

void BFloat16ToDouble(const uint8_t* bytes, int64_t n, double* out) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<uint32_t, decltype(dd)> du32;
  const hn::Rebind<uint16_t, decltype(dd)> du16;
  const auto lanes = static_cast<int64_t>(hn::Lanes(dd));
  const auto* in = reinterpret_cast<const uint16_t*>(bytes);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto bits = hn::ShiftLeft<16>(hn::PromoteTo(du32, hn::LoadU(du16, in + i)));
    hn::StoreU(hn::PromoteTo(dd, hn::BitCast(df, bits)), dd, out + i);
  }
  for (; i < n; ++i)
    out[i] = decode_bf16(static_cast<uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8));
}

ProbeAccumulator LiftProbeChunk(double* x, double* y, double* diff, int64_t n, bool float32) {
  return float32 ? LiftProbe<true>(x, y, diff, n) : LiftProbe<false>(x, y, diff, n);
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.hpp"

namespace dumpcmp::simd {

ProbeAccumulator lift_probe_chunk(double* x, double* y, double* diff, int64_t n, bool float32) {
  return DUMPCMP_SIMD_PICK(LiftProbeChunk)(x, y, diff, n, float32);
}

void float32_to_double(const uint8_t* bytes, int64_t n, double* out) {
  DUMPCMP_SIMD_PICK(Float32ToDouble)(bytes, n, out);
}
void float16_to_double(const uint8_t* bytes, int64_t n, double* out) {
  DUMPCMP_SIMD_PICK(Float16ToDouble)(bytes, n, out);
}
void bfloat16_to_double(const uint8_t* bytes, int64_t n, double* out) {
  DUMPCMP_SIMD_PICK(BFloat16ToDouble)(bytes, n, out);
}

}  // namespace dumpcmp::simd
#endif
