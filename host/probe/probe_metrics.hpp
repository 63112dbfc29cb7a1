#pragma once
// Tensor mode's six metric cells (docs/msprobe-compare.md §5.3) for one row's two data files, as
// msprobe's compare writes them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/probe_array.hpp"

namespace dumpcmp {

// A metric cell: a Python float or one of msprobe's words ("unsupported", "N/A", "Nan", ...).
struct ProbeCell {
  std::optional<double> number;
  std::string word;
  std::string csv() const;  // as msprobe's CSV shows it
};

using ProbeMetrics = std::array<ProbeCell, 6>;  // Cosine ... Five Thousandths Err Ratio

// Every cell the same word: a row whose tensors are not compared ("unsupported",
// "shape unmatched", "N/A").
ProbeMetrics probe_metrics_all(const std::string& word);
// The chain of §5.3 from the empty check on: both arrays read. `numpy_major` 1 computes a 0-d
// pair's relative error as numpy 1.x's value-based casting does (§9.5).
ProbeMetrics probe_metrics(const ProbeArray& npu, const ProbeArray& bench, int numpy_major = 2);

}  // namespace dumpcmp
