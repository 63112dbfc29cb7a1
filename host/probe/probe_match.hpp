#pragma once
// Which bench row each NPU row is compared with (docs/msprobe-compare.md §4): by name with backward
// calls renumbered (exact) or through -dm's mapping; then the dtype condition (none under -dm).
#include <vector>

#include "probe/probe_dump.hpp"
#include "probe/probe_mapping.hpp"

namespace dumpcmp {

struct ProbeMatch {
  const ProbeOp* op;
  const ProbeRow* npu;
  const ProbeRow* bench;  // nullptr: unmatched (no bench row, or dtypes that do not pair)
};

struct ProbeMatching {
  const ProbeDataMapping* data_mapping = nullptr;  // -dm
};

// One entry per NPU row, in NPU order, repeated for each bench row of its key.
std::vector<ProbeMatch> match_probe_rows(const ProbeDump& npu, const ProbeDump& bench,
                                         const ProbeMatching& how);

// Whether some bench row has no NPU row of its exact key.
bool has_bench_only_rows(const ProbeDump& npu, const ProbeDump& bench);

}  // namespace dumpcmp
