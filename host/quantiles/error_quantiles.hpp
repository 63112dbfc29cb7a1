#pragma once
// Computes --quantiles' distributions (error_distribution.hpp) of tensor pairs on host threads.
// They are order statistics and counts, not sums, so every thread count (and every backend that
// computes them later) gives the same values by construction.
#include <vector>

#include "backend/backend.hpp"
#include "quantiles/error_distribution.hpp"

namespace dumpcmp {

// out[i] receives jobs[i]'s distributions, computed on up to `threads` host threads (0 = all).
// Memory stays bounded for any tensor size: a small tensor's errors are selected in memory, a
// large one's by two counting passes over its elements (the top and the low 16 bits of each
// error's float32 bits).
void compute_error_quantiles(const std::vector<TensorPairJob>& jobs,
                             std::vector<PairQuantiles>& out, int threads);

// numpy's 'linear' quantile of a sorted population from its two neighbouring order statistics
// a <= b and the fraction t between them, in double as numpy computes it; where numpy's arithmetic
// meets inf (inf - inf, inf * 0) the result is the order statistic a (t = 0) or inf.
double interpolate_quantile(double a, double b, double t);

}  // namespace dumpcmp
