#pragma once
// Which bench row each NPU row is compared with (docs/msprobe-compare.md §4): by name with backward
// calls renumbered (exact), or by the NPU name through -am's, -cm's or -dm's mapping; then the
// dtype condition (none under -dm; by dtype kind across frameworks).
#include <vector>

#include "probe/probe_dump.hpp"
#include "probe/probe_mapping.hpp"

namespace dumpcmp {

struct ProbeConsistentCheck;  // probe_verl_match.hpp

struct ProbeMatch {
  const ProbeOp* op;
  const ProbeRow* npu;    // nullptr: a bench row no NPU row meets (--consistent_check only)
  const ProbeRow* bench;  // nullptr: unmatched (no bench row, or dtypes that do not pair)
};

// How rows pair. The first mapping given names the NPU key: -am, else -cm, else -dm.
struct ProbeMatching {
  const ProbeDataMapping* data_mapping = nullptr;  // -dm: full row names; no dtype condition
  const ProbeCellMapping* cell_mapping = nullptr;  // -cm: cell paths (none for the bare flag)
  const ProbeApiMapping* api_mapping = nullptr;    // -am: built-in API names, then the user's
  bool cross_framework = false;                    // a MindSpore NPU run against a PyTorch bench
  bool fuzzy = false;  // -fm: the queue walk of §4.3 on names without call numbers (not under -dm)
  // --consistent_check: verl's train-against-infer pairing (probe_verl_match; the others unset)
  const ProbeConsistentCheck* consistent = nullptr;
};

// One entry per NPU row, in NPU order, repeated for each bench row of its key.
std::vector<ProbeMatch> match_probe_rows(const ProbeDump& npu, const ProbeDump& bench,
                                         const ProbeMatching& how);

// -fm's queue walk (§4.3): the NPU rows in order, each with the bench row whose name, call number
// dropped, it met (nullptr: none), before the dtype condition; NPU rows the walk never reaches (it
// stops once the bench rows are used up) are left out.
std::vector<ProbeMatch> fuzzy_walk(const ProbeDump& npu, const ProbeDump& bench,
                                   const ProbeMatching& how);
// The dtype condition on one pair: bench nullptr when the dtypes do not pair.
ProbeMatch dtype_checked(const ProbeMatch& match, const ProbeMatching& how);

// Whether msprobe's outer merge keeps a bench row no NPU row's key meets (never under -dm, whose
// merge is a left one).
bool has_bench_only_rows(const ProbeDump& npu, const ProbeDump& bench, const ProbeMatching& how);

}  // namespace dumpcmp
