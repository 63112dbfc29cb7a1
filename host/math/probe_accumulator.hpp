#pragma once
// msprobe's real-data metrics that do not depend on summation order (docs/msprobe-compare.md
// §5.3): MaxAbsErr, MaxRelativeErr and the two error ratios, with NaN and inf at the same places on
// both sides set to zero there, as msprobe sets them, and counted where they are not. The relative
// error is worked in msprobe's result type: float32 when both sides are 16- or 32-bit floats,
// float64 otherwise. The dot products (Cosine, EucDist) go through math/blas_dot.
#include <cstdint>

#include "core/host_device.hpp"
#include "math/accumulator.hpp"

namespace dumpcmp {

struct ProbeAccumulator {
  uint64_t n = 0;
  uint64_t unmatched_special = 0;  // places where NaN or inf is on one side only (or differs)
  double max_abs = 0.0;            // of |npu - bench| in float64
  double max_relative = 0.0;       // of |(npu - bench) / bench| in the result type
  bool relative_nan = false;
  uint64_t below_thousandth = 0, below_five_thousandths = 0;

  DUMPCMP_HD void merge(const ProbeAccumulator& o) {
    n += o.n;
    unmatched_special += o.unmatched_special;
    max_abs = o.max_abs > max_abs ? o.max_abs : max_abs;
    max_relative = o.max_relative > max_relative ? o.max_relative : max_relative;
    relative_nan = relative_nan || o.relative_nan;
    below_thousandth += o.below_thousandth;
    below_five_thousandths += o.below_five_thousandths;
  }
};

// |(x - y) / y| in T, where a zero y adds T's epsilon to both sides first (get_relative_err).
template <typename T>
DUMPCMP_HD T probe_relative_error(T x, T y) {
  if (y == T(0)) {
    const T eps = sizeof(T) == 4 ? T(1.1920928955078125e-07) : T(kEps64);
    x = x + eps;
    y = y + eps;
  }
  const T r = (x - y) / y;
  return r < T(0) ? -r : (r == T(0) ? T(0) : r);  // np.abs: a zero quotient is +0.0
}

// get_relative_err of one element pair whose NaN and inf were set to zero: |(x - y) / y| in T,
// where a zero y adds T's epsilon to both sides first. A zero quotient may be -0.0.
template <typename T>
DUMPCMP_HD T probe_relative_term(double x, double y) {
  const T eps = sizeof(T) == 4 ? T(1.1920928955078125e-07) : T(kEps64);
  const T yt = static_cast<T>(y);
  const T shift = yt == T(0) ? eps : T(0);
  const T xs = static_cast<T>(x) + shift, ys = yt + shift;
  const T q = (xs - ys) / ys;
  return q < T(0) ? -q : q;
}

// Folds n pairs (x = NPU, y = bench, as float64) in. NaN and inf matched on both sides become
// zeros in x and y, and diff[i] receives x - y, for the dot products. Branch-free over kLanes
// independent lanes, so that the compiler vectorizes it; the result does not depend on the order.
template <typename T>
DUMPCMP_HD ProbeAccumulator lift_probe_chunk(double* x, double* y, double* diff, int64_t n) {
  double max_abs[kLanes] = {}, max_rel[kLanes] = {};
  uint64_t unmatched[kLanes] = {}, below1[kLanes] = {}, below5[kLanes] = {}, rel_nan[kLanes] = {};
  auto lift = [&](int lane, int64_t i) {
    const double xv = x[i], yv = y[i];
    const bool x_nan = xv != xv, y_nan = yv != yv;
    const bool x_inf = (xv < 0.0 ? -xv : xv) == INFINITY;
    const bool y_inf = (yv < 0.0 ? -yv : yv) == INFINITY;
    const bool special = x_nan | y_nan | x_inf | y_inf;
    unmatched[lane] += (x_nan != y_nan) | (x_inf != y_inf);
    const double xz = special ? 0.0 : xv, yz = special ? 0.0 : yv;
    x[i] = xz;
    y[i] = yz;
    const double d = xz - yz;
    diff[i] = d;
    const double abs_d = d < 0.0 ? -d : d;
    max_abs[lane] = abs_d > max_abs[lane] ? abs_d : max_abs[lane];
    const T r = probe_relative_term<T>(xz, yz);
    rel_nan[lane] |= r != r;
    max_rel[lane] = static_cast<double>(r) > max_rel[lane] ? static_cast<double>(r) : max_rel[lane];
    below1[lane] += r < T(0.001);
    below5[lane] += r < T(0.005);
  };
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int l = 0; l < kLanes; ++l) lift(l, i + l);
  for (int l = 0; i < n; ++i, ++l) lift(l, i);
  ProbeAccumulator a;
  a.n = static_cast<uint64_t>(n);
  for (int l = 0; l < kLanes; ++l) {
    a.unmatched_special += unmatched[l];
    a.max_abs = max_abs[l] > a.max_abs ? max_abs[l] : a.max_abs;
    a.max_relative = max_rel[l] > a.max_relative ? max_rel[l] : a.max_relative;
    a.relative_nan = a.relative_nan || rel_nan[l] != 0;
    a.below_thousandth += below1[l];
    a.below_five_thousandths += below5[l];
  }
  return a;
}

}  // namespace dumpcmp
