// docs/msprobe-compare.md §5.3: ValidateTensor's chain and the six built-in algorithms, as
// msprobe 26.2.0 runs them.
#include "probe/probe_metrics.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "math/blas_dot.hpp"
#include "math/element_decode.hpp"
#include "math/probe_accumulator.hpp"
#include "probe/numpy_type.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

// The result type of get_relative_err: float32 when both sides are 16- or 32-bit floats.
bool relative_in_float32(DType npu, DType bench) {
  const NumpyType a = numpy_type(npu), b = numpy_type(bench);
  return a.kind == NumpyKind::kFloat && b.kind == NumpyKind::kFloat && a.bytes <= 4 && b.bytes <= 4;
}

// One element exactly as numpy holds it: integers as integers, complex numbers whole.
struct Scalar {
  NumpyType type;
  double f = 0;   // the value as float64 (a complex number's real part)
  double im = 0;  // a complex number's imaginary part
  int64_t i = 0;  // the bits of an integer type, sign- or zero-extended
};

Scalar scalar_of(const ProbeArray& a) {
  Scalar s{numpy_type(a.dtype)};
  widen_to_double(a, 0, 1, &s.f);
  s.i = integer_element(a, 0).value_or(0);
  if (const auto c = complex_element(a, 0)) s.im = c->second;
  return s;
}

// The bytes of each part of the complex type numpy promotes a complex scalar and `other` to.
int complex_part_bytes(NumpyType complex, NumpyType other) {
  int bytes = complex.bytes;
  if (other.kind == NumpyKind::kComplex || other.kind == NumpyKind::kFloat) {
    bytes = std::max(bytes, other.bytes);
  } else if (other.kind != NumpyKind::kBool) {
    bytes = std::max(bytes, other.bytes <= 2 ? 4 : 8);  // int8/16 fit complex64's float32
  }
  return bytes;
}

// np.abs of a complex number as numpy's vector loop computes it (which it also runs for one
// element): larger * sqrt(ratio * ratio + 1) with a fused multiply-add, not hypot; an infinite part
// gives inf, else a NaN part NaN. Checked against numpy 2 on 20,000 complex64 values.
template <typename T>
T numpy_complex_abs(T re, T im) {
  re = std::fabs(re);
  im = std::fabs(im);
  if (std::isinf(re) || std::isinf(im)) return std::numeric_limits<T>::infinity();
  if (std::isnan(re) || std::isnan(im)) return std::numeric_limits<T>::quiet_NaN();
  const T larger = std::max(re, im), smaller = std::min(re, im);
  const T ratio = larger == T(0) ? T(0) : smaller / larger;
  return std::sqrt(std::fma(ratio, ratio, T(1))) * larger;
}

// np.abs(n - b) of two 0-d arrays, in their promoted type (integers wrap; a bool NPU side is first
// made float64, as flatten_numpy does), as float64.
double scalar_abs_difference(Scalar n, Scalar b) {
  if (n.type.kind == NumpyKind::kComplex || b.type.kind == NumpyKind::kComplex) {
    // The complex difference's magnitude (np.abs), in the parts' precision.
    const NumpyType c = n.type.kind == NumpyKind::kComplex ? n.type : b.type;
    const NumpyType other = n.type.kind == NumpyKind::kComplex ? b.type : n.type;
    if (complex_part_bytes(c, other) == 8) return numpy_complex_abs(n.f - b.f, n.im - b.im);
    const float re = static_cast<float>(n.f) - static_cast<float>(b.f);
    const float im = static_cast<float>(n.im) - static_cast<float>(b.im);
    return numpy_complex_abs(re, im);
  }
  if (n.type.kind == NumpyKind::kBool) {
    n.type = {NumpyKind::kFloat, 8};
    b.type = {NumpyKind::kFloat, 8};
  }
  const NumpyType p = promote(n.type, b.type);
  if (p.kind == NumpyKind::kFloat) {
    if (p.bytes == 8) return std::fabs(n.f - b.f);
    const float d = static_cast<float>(n.f) - static_cast<float>(b.f);
    if (p.bytes == 4) return std::fabs(d);
    return std::fabs(decode_fp16(encode_fp16(d)));  // numpy's float16 arithmetic
  }
  const int bits = p.bytes * 8;
  uint64_t d = static_cast<uint64_t>(n.i) - static_cast<uint64_t>(b.i);
  if (bits < 64) d &= (uint64_t{1} << bits) - 1;
  if (p.kind == NumpyKind::kUnsigned) return static_cast<double>(d);
  int64_t v = bits < 64 && (d >> (bits - 1) & 1)
                  ? static_cast<int64_t>(d | ~((uint64_t{1} << bits) - 1))
                  : static_cast<int64_t>(d);
  if (v < 0) {  // abs wraps at the type's minimum, as numpy's does
    const uint64_t magnitude = 0 - static_cast<uint64_t>(v);
    v = bits < 64 && magnitude >> (bits - 1) ? v : static_cast<int64_t>(magnitude);
  }
  return static_cast<double>(v);
}

// x printed with `decimals` places and read back: Python's float("{:.Nf}".format(x)), and
// round(x, N), which rounds the same correctly rounded decimal.
double rounded_to(double x, int decimals) {
  if (!std::isfinite(x)) return x;
  char text[400];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return std::strtod(text, nullptr);
}

// msprobe's format_value: float("{:.12f}".format(x)).
double format_value(double x) { return rounded_to(x, 12); }

ProbeCell word(const char* w) { return ProbeCell{std::nullopt, w}; }
ProbeCell number(double v) { return ProbeCell{v, ""}; }

ProbeCell max_relative_cell(bool nan, double max) {
  return nan ? word("Nan") : number(format_value(max));
}

// numpy 1.x's result_type(n, b, float32) for two 0-d arrays: they count as scalars, each as the
// smallest float that holds its magnitude, so float32 unless a finite value is past its range.
bool legacy_scalar_float32(double n, double b) {
  const auto fits = [](double v) { return !std::isfinite(v) || std::fabs(v) <= FLT_MAX; };
  return fits(n) && fits(b);
}

// A 0-d pair: only MaxAbsErr and MaxRelativeErr, with no NaN or inf handling.
ProbeMetrics scalar_metrics(const ProbeArray& npu, const ProbeArray& bench, int numpy_major) {
  ProbeMetrics m;
  m.fill(word("unsupported"));
  const Scalar n = scalar_of(npu), b = scalar_of(bench);
  const double abs_d = scalar_abs_difference(n, b);
  m[2] = std::isnan(abs_d) ? word("Nan") : number(format_value(abs_d));
  double r = 0;
  const bool f32 = numpy_major == 1 ? legacy_scalar_float32(n.f, b.f)
                                    : relative_in_float32(npu.dtype, bench.dtype);
  if (f32) {
    r = probe_relative_error<float>(static_cast<float>(n.f), static_cast<float>(b.f));
  } else {
    r = probe_relative_error<double>(n.f, b.f);
  }
  m[3] = max_relative_cell(std::isnan(r), r);
  return m;
}

double ratio(uint64_t count, uint64_t total) {
  return format_value(static_cast<double>(count) / static_cast<double>(total));
}

}  // namespace

std::string ProbeCell::csv() const {
  if (!number) return word;
  if (std::isinf(*number)) return *number > 0 ? " inf" : " -inf";
  return python_float_repr(*number);
}

ProbeMetrics probe_metrics_all(const std::string& w) {
  ProbeMetrics m;
  m.fill(ProbeCell{std::nullopt, w});
  return m;
}

std::optional<ProbeMetrics> settled_probe_metrics(const ProbeArray& npu, const ProbeArray& bench,
                                                  int numpy_major) {
  if (npu.numel == 0) return probe_metrics_all("unsupported");
  if (npu.shape != bench.shape) return probe_metrics_all("shape unmatched");
  if (npu.shape.empty()) return scalar_metrics(npu, bench, numpy_major);
  return std::nullopt;
}

ProbePairJob probe_pair_job(const ProbeArray& npu, const ProbeArray& bench) {
  ProbePairJob job;
  job.npu = {npu.data, npu.dtype};
  job.bench = {bench.data, bench.dtype};
  job.count = npu.numel;
  job.relative_f32 = relative_in_float32(npu.dtype, bench.dtype);
  return job;
}

ProbeMetrics probe_metrics_from(const ProbeSums& sums) {
  const ProbeAccumulator& a = sums.acc;
  if (a.unmatched_special > 0) return probe_metrics_all("N/A");

  ProbeMetrics m;
  // Cosine
  const double npu_norm = std::sqrt(sums.npu_sq), bench_norm = std::sqrt(sums.bench_sq);
  if (npu_norm <= kEps64 && bench_norm <= kEps64) {
    m[0] = number(1.0);
  } else if (npu_norm <= kEps64 || bench_norm <= kEps64) {
    m[0] = word("Nan");
  } else {
    const double cosine = sums.dot / (npu_norm * bench_norm);
    if (std::isnan(cosine)) {
      m[0] = word("Nan");
    } else {
      const double c = format_value(cosine);
      m[0] = number(c > 0.9999 ? rounded_to(c, 6) : c);
    }
  }
  m[1] = number(std::sqrt(sums.diff_sq));  // EucDist, not rounded
  m[2] = number(format_value(a.max_abs));
  m[3] = max_relative_cell(a.relative_nan, a.max_relative);
  m[4] = number(ratio(a.below_thousandth, a.n));
  m[5] = number(ratio(a.below_five_thousandths, a.n));
  return m;
}

ProbeMetrics probe_metrics(const ProbeArray& npu, const ProbeArray& bench,
                           const std::function<ProbeSums(const ProbePairJob&)>& reduce,
                           int numpy_major) {
  if (std::optional<ProbeMetrics> settled = settled_probe_metrics(npu, bench, numpy_major))
    return *settled;
  return probe_metrics_from(reduce(probe_pair_job(npu, bench)));
}

ProbeMetrics probe_metrics(const ProbeArray& npu, const ProbeArray& bench, Backend& backend,
                           int numpy_major) {
  const auto reduce = [&](const ProbePairJob& job) {
    std::vector<ProbeSums> sums;
    backend.reduce_probe({job}, host_blas_order(), sums);
    return sums.at(0);
  };
  return probe_metrics(npu, bench, reduce, numpy_major);
}

}  // namespace dumpcmp
