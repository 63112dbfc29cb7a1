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
  return r < T(0) ? -r : r;
}

// Folds n pairs (x = NPU, y = bench, as float64) in. NaN and inf matched on both sides become
// zeros in x and y, and diff[i] receives x - y, for the dot products.
template <typename T>
DUMPCMP_HD ProbeAccumulator lift_probe_chunk(double* x, double* y, double* diff, int64_t n) {
  ProbeAccumulator a;
  a.n = static_cast<uint64_t>(n);
  for (int64_t i = 0; i < n; ++i) {
    const double xv = x[i], yv = y[i];
    const bool x_nan = xv != xv, y_nan = yv != yv;
    const bool x_inf = xv == INFINITY || xv == -INFINITY;
    const bool y_inf = yv == INFINITY || yv == -INFINITY;
    if (x_nan || y_nan || x_inf || y_inf) {
      a.unmatched_special += (x_nan != y_nan) || (x_inf != y_inf);
      x[i] = 0.0;
      y[i] = 0.0;
    }
    const double d = x[i] - y[i];
    diff[i] = d;
    const double abs_d = d < 0.0 ? -d : d;
    a.max_abs = abs_d > a.max_abs ? abs_d : a.max_abs;
    const T r = probe_relative_error<T>(static_cast<T>(x[i]), static_cast<T>(y[i]));
    a.relative_nan = a.relative_nan || r != r;
    a.max_relative =
        static_cast<double>(r) > a.max_relative ? static_cast<double>(r) : a.max_relative;
    a.below_thousandth += r < T(0.001);
    a.below_five_thousandths += r < T(0.005);
  }
  return a;
}

}  // namespace dumpcmp
