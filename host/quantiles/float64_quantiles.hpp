#pragma once
// --quantiles' distributions (error_distribution.hpp) of two float64 error measures that a caller
// computes chunk by chunk: msprobe's tensor mode, whose errors are float64 (docs/quantiles.md).
// Exact quantiles (numpy's 'linear') and the decade histogram, in memory that does not grow with
// the tensor: order statistics and counts, so every thread count gives the same values.
#include <cstdint>
#include <functional>

#include "math/error_distribution.hpp"

namespace dumpcmp {

// Elements [begin, begin + n) of both measures: non-negative or NaN (+0.0 for zero).
using Float64ErrorFill =
    std::function<void(int64_t begin, int64_t n, double* absolute, double* relative)>;

// Errors kept in memory at once per measure, at most (8 MiB of keys).
inline constexpr int64_t kFloat64CollectLimit = int64_t{1} << 20;

// The distributions of `count` elements' errors, on up to `threads` host threads (0 = all).
// A tensor of up to 65,536 elements has its errors collected and selected in memory. A larger one
// is radix-selected over the errors' float64 bits: a pass counts them by their top 16 bits, and
// each later pass counts those that share a wanted statistic's known bits by their next 16, until
// at most `collect_limit` share them: a last pass collects those and selects in memory.
PairQuantiles float64_error_quantiles(int64_t count, const Float64ErrorFill& fill, int threads,
                                      int64_t collect_limit = kFloat64CollectLimit);

// The histogram bin of a float64 error: its edges are the float32 values nearest the powers of
// ten (kHistogramEdges), as for the float32 errors.
int float64_histogram_bin(double error);

}  // namespace dumpcmp
