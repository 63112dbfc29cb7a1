#pragma once
// --quantiles' columns as a result table names and spells them (docs/quantiles.md): per error
// measure its quantiles, then its histogram's counts joined by ';'.
#include <string>
#include <vector>

#include "math/error_distribution.hpp"

namespace dumpcmp {

// AbsErrorP50, AbsErrorP99, AbsErrorP99.9, AbsErrorHistogram, then the RelError ones.
void append_quantile_header(std::vector<std::string>& header);

// The histogram's 11 counts, "n0;n1;...;n10".
std::string histogram_text(const ErrorDistribution& d);

}  // namespace dumpcmp
