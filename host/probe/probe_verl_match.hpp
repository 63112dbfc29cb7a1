#pragma once
// verl's train-against-infer compare (msprobe's --consistent_check --backend fsdp|megatron;
// docs/msprobe-compare.md §4.8): which training rows are read, the module names of both sides
// brought to one vocabulary, rows paired by call, argument, layer and module, the rows a merged
// projection meets gathered into one, and the pairs put in an order both sides' dumps keep.
#include <deque>
#include <string>
#include <vector>

#include "probe/probe_dump.hpp"
#include "probe/probe_match.hpp"

namespace dumpcmp {

enum class VerlBackend { kFsdp, kMegatron };

struct ProbeConsistentCheck {
  VerlBackend backend = VerlBackend::kFsdp;
  bool xlsx = false;  // the gathered names are joined with ";\n" in a workbook, ";  " in a CSV
};

// The result rows, in msprobe's order. Each match's npu or bench row may be null (N/A); a gathered
// side is one row of its own (names, dtypes, shapes and data file names joined with ';', Max the
// largest, Min the smallest, Mean and Norm the values joined), and every statistic is as msprobe
// reads it back from its text (integers as floats, bools as text). Each match's op is its own,
// keyed by the row's API name as msprobe fills it in (the NPU op's, else the bench op's through
// the pairs that have both).
struct ProbeConsistentRows {
  std::deque<ProbeOp> ops;
  std::deque<ProbeRow> rows;
  std::vector<ProbeMatch> matches;
  std::vector<bool> stack_row;  // the NPU row is the first of its op: NPU_Stack_Info goes on it
};

// Throws Error(kInput) naming the NPU dump where msprobe stops: pairs whose order the two dumps
// contradict ("Conflicting comparison data").
ProbeConsistentRows consistent_rows(const ProbeDump& npu, const ProbeDump& bench,
                                    const ProbeConsistentCheck& how);

}  // namespace dumpcmp
