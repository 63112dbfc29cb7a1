#pragma once
// Tensor mode's six metric cells (docs/msprobe-compare.md §5.3) for one row's two data files, as
// msprobe's compare writes them.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "math/probe_pair.hpp"
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
// The chain of §5.3 from the empty check on, both arrays read, in three steps: the cells of a pair
// settled without a reduction (empty, shapes unmatched, 0-d; `numpy_major` 1 computes a 0-d
// pair's relative error as numpy 1.x's value-based casting does, §9.5), else nullopt; the job a
// backend reduces for it; the cells from that reduction.
std::optional<ProbeMetrics> settled_probe_metrics(const ProbeArray& npu, const ProbeArray& bench,
                                                  int numpy_major = 2);
ProbePairJob probe_pair_job(const ProbeArray& npu, const ProbeArray& bench);
ProbeMetrics probe_metrics_from(const ProbeSums& sums);
// The three steps for one pair, its job reduced by `reduce` (a tensor of a run compared where it
// lies, probe_live), or on `backend` in this host's OpenBLAS order.
ProbeMetrics probe_metrics(const ProbeArray& npu, const ProbeArray& bench,
                           const std::function<ProbeSums(const ProbePairJob&)>& reduce,
                           int numpy_major = 2);
ProbeMetrics probe_metrics(const ProbeArray& npu, const ProbeArray& bench, Backend& backend,
                           int numpy_major = 2);

}  // namespace dumpcmp
