// Highway compiles this file once per SIMD target (foreach_target.h re-includes it); HWY_ONCE marks
// the part compiled once: the functions that dispatch to the chosen target's copy.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/chunk_lift.cpp"
#include "simd/chunk_lift.hpp"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "simd/load_halves-inl.h"
#include "simd/log_ratio-inl.h"
#include "simd/relative_term-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The scalar code's 8 lanes as vectors: element i + j of a block goes to lane j. Floats travel in
// GF vectors of NF lanes, doubles in GD vectors of ND lanes (AVX-512: one each; AVX2: one float
// vector, two double ones; 128-bit targets: two and four).
using DF = hn::CappedTag<float, kLanes>;
using DD = hn::CappedTag<double, kLanes>;
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;
constexpr size_t kNF = hn::MaxLanes(DF());
constexpr size_t kND = hn::MaxLanes(DD());
constexpr size_t kGF = kLanes / kNF;
constexpr size_t kGD = kLanes / kND;
constexpr size_t kPieces = kNF / kND;  // double vectors per float vector: 1 or 2
static_assert(kLanes % kNF == 0 && kNF % kND == 0 && kPieces <= 2, "8 lanes in whole vectors");

// Piece h of a float vector widened to doubles (exact): the whole vector when both hold the same
// lane count, else its lower or upper half. (A template, so only the branch taken is compiled.)
template <class V>
HWY_INLINE VD Widen(V v, size_t h) {
  if constexpr (kPieces == 1) {
    (void)h;
    return hn::PromoteTo(DD(), v);
  }
#if HWY_TARGET != HWY_SCALAR  // one lane a vector: there are no halves
  else {
    const hn::Half<DF> dh;
    return hn::PromoteTo(DD(), h == 0 ? hn::LowerHalf(dh, v) : hn::UpperHalf(dh, v));
  }
#endif
}

// Elements [i, i + kNF) of a side (an unaligned load): float32 values, or binary16 or bfloat16
// converted in registers (exact: the values decode_fp16 and decode_bf16 give).
HWY_INLINE VF Load(Float32Bytes v, int64_t i) {
  return hn::LoadU(DF(), reinterpret_cast<const float*>(v.bytes + 4 * i));
}
HWY_INLINE VF Load(TypedBytes<DType::kFloat16> v, int64_t i) {
  return LoadHalves(DF(), v.bytes + 2 * i);
}
HWY_INLINE VF Load(TypedBytes<DType::kBFloat16> v, int64_t i) {
  return LoadBFloat16s(DF(), v.bytes + 2 * i);
}

HWY_INLINE VF Keep(hn::Mask<DF> take, VF candidate, VF current) {
  return hn::IfThenElse(take, candidate, current);
}

// detail::FiniteLanes::lift on every lane of the full blocks: the lanes then hold what the scalar
// loop leaves in them (the caller lifts the tail).
template <class X, class Y>
void FillFiniteLanes(X x, Y y, int64_t full, detail::FiniteLanes& l) {
  const DF df;
  const DD dd;
  VD xx[kGD], yy[kGD], xy[kGD], d2[kGD], ad[kGD], re[kGD], sx[kGD], sy[kGD];
  for (size_t g = 0; g < kGD; ++g) {
    xx[g] = yy[g] = xy[g] = d2[g] = ad[g] = re[g] = sx[g] = sy[g] = hn::Zero(dd);
  }
  VF max_ad[kGF], max_re[kGF], min_x[kGF], max_x[kGF], min_y[kGF], max_y[kGF];
  for (size_t g = 0; g < kGF; ++g) {
    max_ad[g] = max_re[g] = hn::Zero(df);
    min_x[g] = min_y[g] = hn::Set(df, INFINITY);
    max_x[g] = max_y[g] = hn::Set(df, -INFINITY);
  }
  for (int64_t i = 0; i < full; i += kLanes) {
    for (size_t gf = 0; gf < kGF; ++gf) {
      const VF vx = Load(x, i + gf * kNF), vy = Load(y, i + gf * kNF);
      const VF abs_d = hn::Abs(hn::Sub(vx, vy));
      const VF e = RelativeTerm(df, vx, vy);
      max_ad[gf] = Keep(hn::Gt(abs_d, max_ad[gf]), abs_d, max_ad[gf]);
      max_re[gf] = Keep(hn::Gt(e, max_re[gf]), e, max_re[gf]);
      min_x[gf] = Keep(hn::Lt(vx, min_x[gf]), vx, min_x[gf]);
      max_x[gf] = Keep(hn::Gt(vx, max_x[gf]), vx, max_x[gf]);
      min_y[gf] = Keep(hn::Lt(vy, min_y[gf]), vy, min_y[gf]);
      max_y[gf] = Keep(hn::Gt(vy, max_y[gf]), vy, max_y[gf]);
      for (size_t h = 0; h < kPieces; ++h) {
        const size_t g = gf * kPieces + h;
        const VD xd = Widen(vx, h), yd = Widen(vy, h), abs_dd = Widen(abs_d, h);
        xx[g] = hn::Add(xx[g], hn::Mul(xd, xd));
        yy[g] = hn::Add(yy[g], hn::Mul(yd, yd));
        xy[g] = hn::Add(xy[g], hn::Mul(xd, yd));
        sx[g] = hn::Add(sx[g], xd);
        sy[g] = hn::Add(sy[g], yd);
        d2[g] = hn::Add(d2[g], hn::Mul(abs_dd, abs_dd));
        ad[g] = hn::Add(ad[g], abs_dd);
        re[g] = hn::Add(re[g], Widen(e, h));
      }
    }
  }
  for (size_t g = 0; g < kGD; ++g) {
    hn::StoreU(xx[g], dd, l.xx + g * kND);
    hn::StoreU(yy[g], dd, l.yy + g * kND);
    hn::StoreU(xy[g], dd, l.xy + g * kND);
    hn::StoreU(d2[g], dd, l.d2 + g * kND);
    hn::StoreU(ad[g], dd, l.ad + g * kND);
    hn::StoreU(re[g], dd, l.re + g * kND);
    hn::StoreU(sx[g], dd, l.sx + g * kND);
    hn::StoreU(sy[g], dd, l.sy + g * kND);
  }
  for (size_t g = 0; g < kGF; ++g) {
    hn::StoreU(max_ad[g], df, l.max_ad + g * kNF);
    hn::StoreU(max_re[g], df, l.max_re + g * kNF);
    hn::StoreU(min_x[g], df, l.min_x + g * kNF);
    hn::StoreU(max_x[g], df, l.max_x + g * kNF);
    hn::StoreU(min_y[g], df, l.min_y + g * kNF);
    hn::StoreU(max_y[g], df, l.max_y + g * kNF);
  }
}

// The squared deviations from the means, lane by lane as in lift_finite_pair_chunk.
template <class X, class Y>
void FillM2Lanes(X x, Y y, int64_t full, double mx, double my, double* m2x, double* m2y) {
  const DD dd;
  VD sum_x[kGD], sum_y[kGD];
  for (size_t g = 0; g < kGD; ++g) sum_x[g] = sum_y[g] = hn::Zero(dd);
  const VD mean_x = hn::Set(dd, mx), mean_y = hn::Set(dd, my);
  for (int64_t i = 0; i < full; i += kLanes) {
    for (size_t gf = 0; gf < kGF; ++gf) {
      const VF vx = Load(x, i + gf * kNF), vy = Load(y, i + gf * kNF);
      for (size_t h = 0; h < kPieces; ++h) {
        const size_t g = gf * kPieces + h;
        const VD dx = hn::Sub(Widen(vx, h), mean_x), dy = hn::Sub(Widen(vy, h), mean_y);
        sum_x[g] = hn::Add(sum_x[g], hn::Mul(dx, dx));
        sum_y[g] = hn::Add(sum_y[g], hn::Mul(dy, dy));
      }
    }
  }
  for (size_t g = 0; g < kGD; ++g) {
    hn::StoreU(sum_x[g], dd, m2x + g * kND);
    hn::StoreU(sum_y[g], dd, m2y + g * kND);
  }
}

template <class X, class Y>
PairAccumulator LiftPair(X x, Y y, int64_t n) {
  detail::FiniteLanes l;
  const int64_t full = n - n % kLanes;
  FillFiniteLanes(x, y, full, l);
  for (int64_t i = full; i < n; ++i) l.lift(static_cast<int>(i - full), x[i], y[i]);
  if (!l.finite()) return lift_special_pair_chunk(x, y, n);

  PairAccumulator a = detail::sum_finite_lanes(l, n);
  if (n == 0) return a;
  double m2x[kLanes], m2y[kLanes];
  FillM2Lanes(x, y, full, a.x.mean, a.y.mean, m2x, m2y);
  for (int64_t i = full; i < n; ++i) {
    const double dx = static_cast<double>(x[i]) - a.x.mean;
    const double dy = static_cast<double>(y[i]) - a.y.mean;
    m2x[i - full] += dx * dx;
    m2y[i - full] += dy * dy;
  }
  detail::add_m2_lanes(a, m2x, m2y);
  return a;
}

// KldScale::apply on every lane.
HWY_INLINE VF ApplyScale(VF v, VF min, VF range, hn::Mask<DF> scaled_side, VF eps) {
  const VF b = hn::IfThenElse(scaled_side, hn::Div(hn::Sub(v, min), range), v);
  return hn::IfThenElse(hn::Gt(b, eps), b, eps);
}

template <class X, class Y>
KldAccumulator LiftKld(X x, Y y, int64_t n, KldScale kx, KldScale ky) {
  const DF df;
  const DD dd;
  VD sp[kGD], sq[kGD], t[kGD];
  for (size_t g = 0; g < kGD; ++g) sp[g] = sq[g] = t[g] = hn::Zero(dd);
  const VF min_x = hn::Set(df, kx.min), range_x = hn::Set(df, kx.range);
  const VF min_y = hn::Set(df, ky.min), range_y = hn::Set(df, ky.range);
  const auto scaled_x = hn::Ne(range_x, hn::Zero(df)), scaled_y = hn::Ne(range_y, hn::Zero(df));
  const VF eps = hn::Set(df, kEps32);
  const int64_t full = n - n % kLanes;
  for (int64_t i = 0; i < full; i += kLanes) {
    for (size_t gf = 0; gf < kGF; ++gf) {
      const VF bx = ApplyScale(Load(x, i + gf * kNF), min_x, range_x, scaled_x, eps);
      const VF by = ApplyScale(Load(y, i + gf * kNF), min_y, range_y, scaled_y, eps);
      const VF log_pq = LogRatio(df, bx, by);
      for (size_t h = 0; h < kPieces; ++h) {
        const size_t g = gf * kPieces + h;
        const VD p = Widen(bx, h), q = Widen(by, h);
        sp[g] = hn::Add(sp[g], p);
        sq[g] = hn::Add(sq[g], q);
        t[g] = hn::Add(t[g], hn::Mul(p, Widen(log_pq, h)));
      }
    }
  }
  double sum_p[kLanes], sum_q[kLanes], sum_t[kLanes];
  for (size_t g = 0; g < kGD; ++g) {
    hn::StoreU(sp[g], dd, sum_p + g * kND);
    hn::StoreU(sq[g], dd, sum_q + g * kND);
    hn::StoreU(t[g], dd, sum_t + g * kND);
  }
  for (int64_t i = full; i < n; ++i) {
    const auto j = static_cast<int>(i - full);
    const float p = kx.apply(x[i]), q = ky.apply(y[i]);
    sum_p[j] += p;
    sum_q[j] += q;
    sum_t[j] += kld_term(p, q);
  }
  return KldAccumulator::from_lanes(sum_p, sum_q, sum_t);
}

// f(the side as the array type its dtype reads as).
template <class F>
HWY_INLINE auto WithSide(ChunkSide side, F f) {
  switch (side.dtype) {
    case DType::kFloat16:
      return f(TypedBytes<DType::kFloat16>(side.bytes));
    case DType::kBFloat16:
      return f(TypedBytes<DType::kBFloat16>(side.bytes));
    default:
      return f(Float32Bytes(side.bytes));
  }
}

PairAccumulator LiftPairChunk(ChunkSide x, ChunkSide y, int64_t n) {
  return WithSide(
      x, [&](auto xs) { return WithSide(y, [&](auto ys) { return LiftPair(xs, ys, n); }); });
}

KldAccumulator LiftKldChunk(ChunkSide x, ChunkSide y, int64_t n, KldScale kx, KldScale ky) {
  return WithSide(
      x, [&](auto xs) { return WithSide(y, [&](auto ys) { return LiftKld(xs, ys, n, kx, ky); }); });
}

// The target this copy was compiled for: what dispatch picked, told by the code it picked.
int64_t CompiledFor() { return HWY_TARGET; }

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.hpp"

namespace dumpcmp::simd {

PairAccumulator lift_pair_chunk(ChunkSide x, ChunkSide y, int64_t n) {
  return DUMPCMP_SIMD_PICK(LiftPairChunk)(x, y, n);
}

PairAccumulator lift_pair_chunk(Float32Bytes x, Float32Bytes y, int64_t n) {
  return lift_pair_chunk(ChunkSide{x.bytes}, ChunkSide{y.bytes}, n);
}

KldAccumulator lift_kld_chunk(ChunkSide x, ChunkSide y, int64_t n, KldScale sx, KldScale sy) {
  return DUMPCMP_SIMD_PICK(LiftKldChunk)(x, y, n, sx, sy);
}

KldAccumulator lift_kld_chunk(Float32Bytes x, Float32Bytes y, int64_t n, KldScale sx, KldScale sy) {
  return lift_kld_chunk(ChunkSide{x.bytes}, ChunkSide{y.bytes}, n, sx, sy);
}

int64_t dispatched_target() { return DUMPCMP_SIMD_PICK(CompiledFor)(); }

}  // namespace dumpcmp::simd
#endif
