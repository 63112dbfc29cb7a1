#pragma once
// What --quantiles reports of a tensor pair (docs/quantiles.md): exact quantiles and a decade
// histogram of two per-element errors, |x - y| and msaccucmp's relative error term, each as the
// float32 the first pass folds into MaxAbsError and MaxRelativeError.
#include <array>
#include <cstdint>

namespace dumpcmp {

enum class ErrorMeasure { kAbsolute, kRelative };
inline constexpr int kErrorMeasures = 2;

// The quantile levels reported, in column order (numpy's default 'linear' method).
inline constexpr std::array<double, 3> kQuantileLevels = {0.5, 0.99, 0.999};

// Column names: a measure's name, then a level's ("AbsErrorP99.9") or "Histogram".
inline constexpr std::array<const char*, kErrorMeasures> kErrorMeasureNames = {"AbsError",
                                                                               "RelError"};
inline constexpr std::array<const char*, kQuantileLevels.size()> kQuantileLevelNames = {
    "P50", "P99", "P99.9"};

// Histogram bins: 0; (0, 1e-7); [1e-7, 1e-6) ... [0.1, 1) (one per decade); [1, inf]; NaN. The
// edges are the float32 values nearest the powers of ten, compared with the float32 errors.
inline constexpr int kHistogramBins = 11;
inline constexpr std::array<float, 8> kHistogramEdges = {1e-7f, 1e-6f, 1e-5f, 1e-4f,
                                                         1e-3f, 1e-2f, 1e-1f, 1.0f};
static_assert(kHistogramBins == kHistogramEdges.size() + 3, "0, one bin an edge and below, NaN");

struct ErrorDistribution {
  int64_t count = 0;  // elements whose error is not NaN (the quantiles' population)
  // kQuantileLevels' quantiles; NaN when count is 0.
  std::array<double, kQuantileLevels.size()> quantile{};
  std::array<int64_t, kHistogramBins> histogram{};  // every element, NaN in the last bin
};

struct PairQuantiles {
  std::array<ErrorDistribution, kErrorMeasures> measure;  // indexed by ErrorMeasure
  const ErrorDistribution& of(ErrorMeasure m) const { return measure[static_cast<int>(m)]; }
};

}  // namespace dumpcmp
