#include "probe/probe_quantiles.hpp"

#include <cmath>

#include "math/probe_accumulator.hpp"
#include "quantiles/float64_quantiles.hpp"
#include "quantiles/quantile_columns.hpp"
#include "simd/probe_decode.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {

namespace {

// The errors of n elements, in place: x and y (both sides as float64) become |x - y| and the
// relative error. Branch-free, so that the compiler vectorizes it.
template <typename T>
void element_errors(double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const bool special = !(std::fabs(x[i]) < INFINITY) | !(std::fabs(y[i]) < INFINITY);
    const double xz = special ? 0.0 : x[i], yz = special ? 0.0 : y[i];  // matched NaN and inf
    x[i] = std::fabs(xz - yz);
    y[i] = static_cast<double>(probe_relative_term<T>(xz, yz));
  }
}

}  // namespace

PairQuantiles probe_quantiles(const ProbePairJob& job, int threads) {
  const auto fill = [&job](int64_t begin, int64_t n, double* absolute, double* relative) {
    simd::decode_to_double(job.npu.dtype, job.npu.data + begin * dtype_storage_size(job.npu.dtype),
                           n, absolute);
    simd::decode_to_double(
        job.bench.dtype, job.bench.data + begin * dtype_storage_size(job.bench.dtype), n, relative);
    if (job.relative_f32) {
      element_errors<float>(absolute, relative, n);
    } else {
      element_errors<double>(absolute, relative, n);
    }
  };
  return float64_error_quantiles(job.count, fill, threads);
}

std::vector<std::string> probe_quantile_cells(const PairQuantiles* quantiles) {
  std::vector<std::string> cells;
  for (const ErrorDistribution& d : quantiles ? quantiles->measure : PairQuantiles{}.measure) {
    for (const double q : d.quantile) cells.push_back(quantiles ? python_float_repr(q) : "N/A");
    cells.push_back(quantiles ? histogram_text(d) : "N/A");
  }
  return cells;
}

}  // namespace dumpcmp
