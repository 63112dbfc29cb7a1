#pragma once
// The fused accumulators every metric is derived from (docs/architecture.md, "The path of one row",
// steps 5-6; the numeric model in docs/algorithms.md §2.0).
// lift_*_chunk folds a contiguous run of decoded element pairs in; merge folds two partial results
// (Chan's formulas for the moments). The same code runs in the CPU backend, the thrust-omp backend
// and CUDA kernels, so counts and maxima agree bit for bit; sums are accumulated in double.
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "math/log_ratio.hpp"

namespace dumpcmp {

constexpr double kEps64 = 2.220446049250313e-16;   // numpy finfo(float).eps
constexpr float kEps32 = 1.1920928955078125e-07f;  // KLD's clamp
// Independent partial sums per chunk: lane j folds elements j, j + 8, j + 16, ... in order, and
// the lanes are added in order 0..7. Every backend keeps this layout (8 vector lanes on the CPU,
// 8 threads per chunk on the GPU), so all give the same bits.
constexpr int kLanes = 8;

// Moments and extremes of one side, in the float32 values msaccucmp compares.
struct SideStats {
  uint64_t nan = 0, pos_inf = 0, neg_inf = 0;
  uint64_t finite = 0;   // elements in mean/m2
  double mean = 0.0;     // of the finite elements
  double m2 = 0.0;       // sum of squared deviations of the finite elements
  float min = INFINITY;  // over non-NaN elements (inf included): KLD's min-max scaling
  float max = -INFINITY;

  DUMPCMP_HD void merge(const SideStats& o) {
    nan += o.nan;
    pos_inf += o.pos_inf;
    neg_inf += o.neg_inf;
    min = o.min < min ? o.min : min;
    max = o.max > max ? o.max : max;
    if (o.finite == 0) return;
    if (finite == 0) {
      finite = o.finite;
      mean = o.mean;
      m2 = o.m2;
      return;
    }
    const double na = static_cast<double>(finite);
    const double nb = static_cast<double>(o.finite);
    const double n = na + nb;
    const double delta = o.mean - mean;
    mean += delta * (nb / n);
    m2 += o.m2 + delta * delta * (na * nb / n);
    finite += o.finite;
  }
};

// Everything but KLD, in one pass over (x = my output, y = ground truth).
struct PairAccumulator {
  uint64_t n = 0;
  double sum_xx = 0.0, sum_yy = 0.0,
         sum_xy = 0.0;  // products of float32 values are exact in double
  double sum_d2 = 0.0;  // d = fl32(x - y), as numpy subtracts in float32
  double sum_abs_d = 0.0;
  double sum_rel = 0.0;    // e = |fl32(fl32(x / y) - 1)| where |y| > eps64, else 0
  float max_abs_d = 0.0f;  // over non-NaN |d|
  float max_rel = 0.0f;    // over non-NaN e
  uint64_t nan_abs_d = 0, nan_rel = 0;
  SideStats x, y;

  DUMPCMP_HD void merge(const PairAccumulator& o) {
    n += o.n;
    sum_xx += o.sum_xx;
    sum_yy += o.sum_yy;
    sum_xy += o.sum_xy;
    sum_d2 += o.sum_d2;
    sum_abs_d += o.sum_abs_d;
    sum_rel += o.sum_rel;
    max_abs_d = o.max_abs_d > max_abs_d ? o.max_abs_d : max_abs_d;
    max_rel = o.max_rel > max_rel ? o.max_rel : max_rel;
    nan_abs_d += o.nan_abs_d;
    nan_rel += o.nan_rel;
    x.merge(o.x);
    y.merge(o.y);
  }
};

namespace detail {

DUMPCMP_HD inline float abs32(float v) { return v < 0.0f ? -v : v; }
DUMPCMP_HD inline bool is_finite32(float v) { return abs32(v) < INFINITY; }  // false for NaN too

// The relative-error term of msaccucmp's ARE/MaxRE/MeanRE.
DUMPCMP_HD inline float relative_term(float x, float y) {
  if (!(static_cast<double>(abs32(y)) > kEps64)) return 0.0f;  // NaN golden counts as 0 too
  const float q = x / y;
  return abs32(q - 1.0f);
}

// Moments of one side's chunk: two passes over cache-resident data, then merged by Chan's formulas.
// Elements is anything indexable with [i] -> float: a decoded buffer, or a decoding view.
template <typename Elements>
DUMPCMP_HD SideStats side_chunk_stats(const Elements& v, int64_t n) {
  SideStats s;
  double lane_sum[kLanes] = {};
  uint64_t lane_finite[kLanes] = {};
  for (int64_t i = 0; i < n; ++i) {
    const float e = v[i];
    const int lane = static_cast<int>(i % kLanes);
    s.nan += (e != e);
    s.pos_inf += (e == INFINITY);
    s.neg_inf += (e == -INFINITY);
    s.min = e < s.min ? e : s.min;  // comparisons with NaN are false: NaN is ignored
    s.max = e > s.max ? e : s.max;
    const bool fin = is_finite32(e);
    lane_sum[lane] += fin ? static_cast<double>(e) : 0.0;
    lane_finite[lane] += fin;
  }
  double sum = 0.0;
  for (int l = 0; l < kLanes; ++l) {
    sum += lane_sum[l];
    s.finite += lane_finite[l];
  }
  if (s.finite == 0) return s;
  s.mean = sum / static_cast<double>(s.finite);
  double lane_m2[kLanes] = {};
  for (int64_t i = 0; i < n; ++i) {
    const float e = v[i];
    const double dev = is_finite32(e) ? static_cast<double>(e) - s.mean : 0.0;
    lane_m2[i % kLanes] += dev * dev;
  }
  for (int l = 0; l < kLanes; ++l) s.m2 += lane_m2[l];
  return s;
}

}  // namespace detail

// One chunk of pairs with NaN or inf somewhere: the general lift, element by element (each side
// any array of floats: the CPU's lifts may read a side as binary16 or bfloat16 bits).
template <typename XElements, typename YElements>
DUMPCMP_HD PairAccumulator lift_special_pair_chunk(const XElements& x, const YElements& y,
                                                   int64_t n) {
  PairAccumulator a;
  a.n = static_cast<uint64_t>(n);
  double xx[kLanes] = {}, yy[kLanes] = {}, xy[kLanes] = {}, d2[kLanes] = {}, ad[kLanes] = {},
         re[kLanes] = {};
  for (int64_t i = 0; i < n; ++i) {
    const int lane = static_cast<int>(i % kLanes);
    const float xv = x[i], yv = y[i];
    const double xd = xv, yd = yv;
    xx[lane] += xd * xd;
    yy[lane] += yd * yd;
    xy[lane] += xd * yd;
    const float abs_d = detail::abs32(xv - yv);
    d2[lane] += static_cast<double>(abs_d) * static_cast<double>(abs_d);
    ad[lane] += abs_d;
    a.nan_abs_d += (abs_d != abs_d);
    a.max_abs_d = abs_d > a.max_abs_d ? abs_d : a.max_abs_d;
    const float e = detail::relative_term(xv, yv);
    re[lane] += e;
    a.nan_rel += (e != e);
    a.max_rel = e > a.max_rel ? e : a.max_rel;
  }
  for (int l = 0; l < kLanes; ++l) {
    a.sum_xx += xx[l];
    a.sum_yy += yy[l];
    a.sum_xy += xy[l];
    a.sum_d2 += d2[l];
    a.sum_abs_d += ad[l];
    a.sum_rel += re[l];
  }
  a.x = detail::side_chunk_stats(x, n);
  a.y = detail::side_chunk_stats(y, n);
  return a;
}

namespace detail {

// One lane of a finite chunk's first loop: everything but the squared deviations.
struct FiniteLane {
  double xx = 0.0, yy = 0.0, xy = 0.0, d2 = 0.0, ad = 0.0, re = 0.0, sx = 0.0, sy = 0.0;
  float max_ad = 0.0f, max_re = 0.0f;
  float min_x = INFINITY, max_x = -INFINITY, min_y = INFINITY, max_y = -INFINITY;

  // Branch-free on purpose: selects instead of ifs, as the SIMD kernels fill the same lanes with
  // masked operations, and so a GPU group's eight threads do not diverge.
  DUMPCMP_HD void lift(float xv, float yv) {
    const double xd = xv, yd = yv;
    xx += xd * xd;
    yy += yd * yd;
    xy += xd * yd;
    sx += xd;
    sy += yd;
    const float abs_d = fabsf(xv - yv);
    const double abs_dd = abs_d;
    d2 += abs_dd * abs_dd;
    ad += abs_dd;
    max_ad = abs_d > max_ad ? abs_d : max_ad;
    // |x/y - 1| where |y| > eps64 (2^-52 is exact in float32), else 0. The quotient is computed
    // for every lane before the select: a division under a condition is not if-converted.
    const float r = fabsf(xv / yv - 1.0f);
    const float e = fabsf(yv) > 0x1p-52f ? r : 0.0f;
    re += e;
    max_re = e > max_re ? e : max_re;
    min_x = xv < min_x ? xv : min_x;
    max_x = xv > max_x ? xv : max_x;
    min_y = yv < min_y ? yv : min_y;
    max_y = yv > max_y ? yv : max_y;
  }

  // Finite sums of squares mean finite elements: a float32 squared is below 2^256, so no sum of
  // finitely many overflows a double, while one NaN or inf makes the sum NaN or inf.
  DUMPCMP_HD bool finite() const { return is_finite64(xx) && is_finite64(yy); }

 private:
  DUMPCMP_HD static bool is_finite64(double v) { return (v < 0.0 ? -v : v) < INFINITY; }
};

// kLanes independent partial results of a finite chunk (structure of arrays, so the SIMD kernels
// fill them with vector stores).
struct FiniteLanes {
  double xx[kLanes] = {}, yy[kLanes] = {}, xy[kLanes] = {}, d2[kLanes] = {}, ad[kLanes] = {},
         re[kLanes] = {}, sx[kLanes] = {}, sy[kLanes] = {};
  float max_ad[kLanes] = {}, max_re[kLanes] = {};
  float min_x[kLanes], max_x[kLanes], min_y[kLanes], max_y[kLanes];

  DUMPCMP_HD FiniteLanes() {
    for (int j = 0; j < kLanes; ++j) {
      min_x[j] = min_y[j] = INFINITY;
      max_x[j] = max_y[j] = -INFINITY;
    }
  }

  DUMPCMP_HD FiniteLane get(int j) const {
    FiniteLane l;
    l.xx = xx[j], l.yy = yy[j], l.xy = xy[j], l.d2 = d2[j], l.ad = ad[j], l.re = re[j];
    l.sx = sx[j], l.sy = sy[j], l.max_ad = max_ad[j], l.max_re = max_re[j];
    l.min_x = min_x[j], l.max_x = max_x[j], l.min_y = min_y[j], l.max_y = max_y[j];
    return l;
  }

  DUMPCMP_HD void set(int j, const FiniteLane& l) {
    xx[j] = l.xx, yy[j] = l.yy, xy[j] = l.xy, d2[j] = l.d2, ad[j] = l.ad, re[j] = l.re;
    sx[j] = l.sx, sy[j] = l.sy, max_ad[j] = l.max_ad, max_re[j] = l.max_re;
    min_x[j] = l.min_x, max_x[j] = l.max_x, min_y[j] = l.min_y, max_y[j] = l.max_y;
  }

  DUMPCMP_HD void lift(int j, float xv, float yv) {
    FiniteLane l = get(j);
    l.lift(xv, yv);
    set(j, l);
  }

  DUMPCMP_HD bool finite() const {
    bool all = true;
    for (int j = 0; j < kLanes; ++j) all = all && get(j).finite();
    return all;
  }
};

// Lane j of a chunk's first loop, as the CPU's vector lane j folds it.
template <typename Elements>
DUMPCMP_HD FiniteLane lift_finite_lane(const Elements& x, const Elements& y, int64_t n, int j) {
  FiniteLane l;
  DUMPCMP_UNROLL
  for (int64_t i = j; i < n; i += kLanes) l.lift(x[i], y[i]);
  return l;
}

// Lane j of the second loop: squared deviations from the chunk's means.
template <typename Elements>
DUMPCMP_HD void add_m2_lane(const Elements& x, const Elements& y, int64_t n, int j, double mx,
                            double my, double& m2x, double& m2y) {
  DUMPCMP_UNROLL
  for (int64_t i = j; i < n; i += kLanes) {
    const double dx = static_cast<double>(x[i]) - mx, dy = static_cast<double>(y[i]) - my;
    m2x += dx * dx;
    m2y += dy * dy;
  }
}

// The lanes of a finite chunk's first loop summed in lane order 0..7, and the means; the squared
// deviations come from a second loop (add_m2_lanes). Shared with the SIMD kernels (simd/), which
// fill the same lanes with vector code, so both give the same bits.
DUMPCMP_HD inline PairAccumulator sum_finite_lanes(const FiniteLanes& l, int64_t n) {
  PairAccumulator a;
  a.n = static_cast<uint64_t>(n);
  double sum_x = 0.0, sum_y = 0.0;
  for (int j = 0; j < kLanes; ++j) {
    a.sum_xx += l.xx[j];
    a.sum_yy += l.yy[j];
    a.sum_xy += l.xy[j];
    a.sum_d2 += l.d2[j];
    a.sum_abs_d += l.ad[j];
    a.sum_rel += l.re[j];
    sum_x += l.sx[j];
    sum_y += l.sy[j];
    a.max_abs_d = l.max_ad[j] > a.max_abs_d ? l.max_ad[j] : a.max_abs_d;
    a.max_rel = l.max_re[j] > a.max_rel ? l.max_re[j] : a.max_rel;
    a.x.min = l.min_x[j] < a.x.min ? l.min_x[j] : a.x.min;
    a.x.max = l.max_x[j] > a.x.max ? l.max_x[j] : a.x.max;
    a.y.min = l.min_y[j] < a.y.min ? l.min_y[j] : a.y.min;
    a.y.max = l.max_y[j] > a.y.max ? l.max_y[j] : a.y.max;
  }
  if (n == 0) return a;
  a.x.finite = a.y.finite = static_cast<uint64_t>(n);
  a.x.mean = sum_x / static_cast<double>(n);
  a.y.mean = sum_y / static_cast<double>(n);
  return a;
}

// The second loop's lanes of squared deviations from the means, summed in lane order.
DUMPCMP_HD inline void add_m2_lanes(PairAccumulator& a, const double* m2x, const double* m2y) {
  for (int j = 0; j < kLanes; ++j) {
    a.x.m2 += m2x[j];
    a.y.m2 += m2y[j];
  }
}

}  // namespace detail

// One chunk of pairs -> partial accumulator. The finite lanes are lifted first; when an element
// was NaN or inf (a lane's sum of squares is not finite) the chunk is lifted again by the general
// path. Both give the same counts and maxima. The SIMD kernels (simd/chunk_lift) and the GPU's
// lane threads (kernels/lane_kernels.cuh) fill the same lanes and finish with the same calls.
template <typename Elements>
DUMPCMP_HD PairAccumulator lift_pair_chunk(const Elements& x, const Elements& y, int64_t n) {
  detail::FiniteLanes l;
  for (int j = 0; j < kLanes; ++j) l.set(j, detail::lift_finite_lane(x, y, n, j));
  if (!l.finite()) return lift_special_pair_chunk(x, y, n);
  PairAccumulator a = detail::sum_finite_lanes(l, n);
  if (n == 0) return a;
  double m2x[kLanes] = {}, m2y[kLanes] = {};
  for (int j = 0; j < kLanes; ++j)
    detail::add_m2_lane(x, y, n, j, a.x.mean, a.y.mean, m2x[j], m2y[j]);
  detail::add_m2_lanes(a, m2x, m2y);
  return a;
}

// KLD's min-max scaling of one side, from the first pass (docs/algorithms.md §2.5).
struct KldScale {
  float min = 0.0f;
  float range = 0.0f;  // fl32(max - min); 0 means the side is used unscaled

  DUMPCMP_HD float apply(float v) const {
    const float scaled = (v - min) / range;  // always computed, as the SIMD kernel does
    const float b = range != 0.0f ? scaled : v;
    return b > kEps32 ? b : kEps32;
  }
};

// Second pass: sums of the clamped scaled values p, q and of p*log(p/q); KLD = T/Sp + log(Sq/Sp).
struct KldAccumulator {
  double sum_p = 0.0, sum_q = 0.0, sum_plogpq = 0.0;

  // kLanes partial sums of each, added in lane order 0..7.
  DUMPCMP_HD static KldAccumulator from_lanes(const double* sp, const double* sq, const double* t) {
    KldAccumulator k;
    for (int l = 0; l < kLanes; ++l) {
      k.sum_p += sp[l];
      k.sum_q += sq[l];
      k.sum_plogpq += t[l];
    }
    return k;
  }

  DUMPCMP_HD void merge(const KldAccumulator& o) {
    sum_p += o.sum_p;
    sum_q += o.sum_q;
    sum_plogpq += o.sum_plogpq;
  }
};

// Lane j of the KLD pass, as the CPU's vector lane j folds it. Runs only on finite data
// (kld_pass_possible), so p and q are positive, finite and normal.
template <typename Elements>
DUMPCMP_HD void add_kld_lane(const Elements& x, const Elements& y, int64_t n, int j, KldScale sx,
                             KldScale sy, double& sp, double& sq, double& t) {
  DUMPCMP_UNROLL
  for (int64_t i = j; i < n; i += kLanes) {
    const float p = sx.apply(x[i]), q = sy.apply(y[i]);
    sp += p;
    sq += q;
    t += kld_term(p, q);
  }
}

template <typename Elements>
DUMPCMP_HD KldAccumulator lift_kld_chunk(const Elements& x, const Elements& y, int64_t n,
                                         KldScale sx, KldScale sy) {
  double sp[kLanes] = {}, sq[kLanes] = {}, t[kLanes] = {};
  for (int j = 0; j < kLanes; ++j) add_kld_lane(x, y, n, j, sx, sy, sp[j], sq[j], t[j]);
  return KldAccumulator::from_lanes(sp, sq, t);
}

// Both tensors bool: msaccucmp runs only CosineSimilarity and RelativeEuclideanDistance on them.
struct BoolAccumulator {
  uint64_t n = 0, x_true = 0, y_true = 0, both_true = 0;

  DUMPCMP_HD void merge(const BoolAccumulator& o) {
    n += o.n;
    x_true += o.x_true;
    y_true += o.y_true;
    both_true += o.both_true;
  }
};

// Bool tensors are decoded as 0.0f / 1.0f like every other type.
template <typename Elements>
DUMPCMP_HD BoolAccumulator lift_bool_chunk(const Elements& x, const Elements& y, int64_t n) {
  BoolAccumulator b;
  b.n = static_cast<uint64_t>(n);
  for (int64_t i = 0; i < n; ++i) {
    const bool xv = x[i] != 0.0f, yv = y[i] != 0.0f;
    b.x_true += xv;
    b.y_true += yv;
    b.both_true += (xv && yv);
  }
  return b;
}

}  // namespace dumpcmp
