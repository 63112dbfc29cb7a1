#pragma once
// The fused accumulators every metric is derived from (design.md "Accumulator + metric table").
// lift_*_chunk folds a contiguous run of decoded element pairs in; merge folds two partial results
// (Chan's formulas for the moments). The same code runs in the CPU backend, the thrust-omp backend
// and CUDA kernels, so counts and maxima agree bit for bit; sums are accumulated in double.
#include <cmath>
#include <cstdint>

#include "dumpcmp/core/host_device.hpp"

namespace dumpcmp {

constexpr double kEps64 = 2.220446049250313e-16;        // numpy finfo(float).eps
constexpr float kEps32 = 1.1920928955078125e-07f;       // KLD's clamp
constexpr int kLanes = 8;                               // independent partial sums per chunk

// Moments and extremes of one side, in the float32 values msaccucmp compares.
struct SideStats {
  uint64_t nan = 0, pos_inf = 0, neg_inf = 0;
  uint64_t finite = 0;     // elements in mean/m2
  double mean = 0.0;       // of the finite elements
  double m2 = 0.0;         // sum of squared deviations of the finite elements
  float min = INFINITY;    // over non-NaN elements (inf included): KLD's min-max scaling
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
  double sum_xx = 0.0, sum_yy = 0.0, sum_xy = 0.0;  // products of float32 values are exact in double
  double sum_d2 = 0.0;      // d = fl32(x - y), as numpy subtracts in float32
  double sum_abs_d = 0.0;
  double sum_rel = 0.0;     // e = |fl32(fl32(x / y) - 1)| where |y| > eps64, else 0
  float max_abs_d = 0.0f;   // over non-NaN |d|
  float max_rel = 0.0f;     // over non-NaN e
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

// One chunk of pairs -> partial accumulator. Sums run in kLanes interleaved lanes (fixed order,
// vectorisable) and are added lane 0..7 at the end, so the result depends only on the data.
template <typename Elements>
DUMPCMP_HD PairAccumulator lift_pair_chunk(const Elements& x, const Elements& y, int64_t n) {
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

// KLD's min-max scaling of one side, from the first pass (spec/algorithms.md §2.5).
struct KldScale {
  float min = 0.0f;
  float range = 0.0f;  // fl32(max - min); 0 means the side is used unscaled

  DUMPCMP_HD float apply(float v) const {
    const float b = range != 0.0f ? (v - min) / range : v;
    return b > kEps32 ? b : kEps32;
  }
};

// Second pass: sums of the clamped scaled values p, q and of p*log(p/q); KLD = T/Sp + log(Sq/Sp).
struct KldAccumulator {
  double sum_p = 0.0, sum_q = 0.0, sum_plogpq = 0.0;

  DUMPCMP_HD void merge(const KldAccumulator& o) {
    sum_p += o.sum_p;
    sum_q += o.sum_q;
    sum_plogpq += o.sum_plogpq;
  }
};

template <typename Elements>
DUMPCMP_HD KldAccumulator lift_kld_chunk(const Elements& x, const Elements& y, int64_t n, KldScale sx,
                                         KldScale sy) {
  double sp[kLanes] = {}, sq[kLanes] = {}, t[kLanes] = {};
  for (int64_t i = 0; i < n; ++i) {
    const int lane = static_cast<int>(i % kLanes);
    const double p = sx.apply(x[i]);
    const double q = sy.apply(y[i]);
    sp[lane] += p;
    sq[lane] += q;
    t[lane] += p * log(p / q);
  }
  KldAccumulator k;
  for (int l = 0; l < kLanes; ++l) {
    k.sum_p += sp[l];
    k.sum_q += sq[l];
    k.sum_plogpq += t[l];
  }
  return k;
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
