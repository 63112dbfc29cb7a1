#pragma once
// `--quantiles` in tensor mode (docs/quantiles.md): after msprobe's columns, the exact quantiles
// and the decade histogram of each reduced pair's two per-element errors, the ones whose maxima
// are MaxAbsErr (|npu - bench| in float64) and MaxRelativeErr (get_relative_err in msprobe's
// result type), NaN and inf at the same places counted as zero errors, as msprobe zeroes them.
#include <string>
#include <vector>

#include "math/error_distribution.hpp"
#include "math/probe_pair.hpp"

namespace dumpcmp {

// A reduced pair's distributions, on up to `threads` host threads (0 = all). The pair has no NaN
// or inf on one side only (its metrics would be N/A).
PairQuantiles probe_quantiles(const ProbePairJob& job, int threads);

// The eight cells: each quantile as Python's repr, each histogram as its counts joined by ';';
// "N/A" each for a row whose pair was not reduced (not compared, settled without a reduction, or
// with NaN or inf on one side only).
std::vector<std::string> probe_quantile_cells(const PairQuantiles* quantiles);

}  // namespace dumpcmp
