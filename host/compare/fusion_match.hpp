#pragma once
// How the fusion-rule paths (compare and -map) find things (docs/formats.md §4.3-§4.4;
// msaccucmp's compare_fusion_op.py): the rule to use, a group's NPUDump / GroundTruth strings,
// and the ground-truth file of an NPU tensor.
#include <string>
#include <vector>

#include "compare/compare_engine.hpp"
#include "compare/compare_scenario.hpp"
#include "fusion/fusion_rule.hpp"
#include "io/dump_file.hpp"
#include "io/inventory.hpp"

namespace dumpcmp {

// -f, -f merged with -q or -cf, or -q alone.
FusionRule load_compare_rule(const CompareOptions& options);

// What every fusion-rule path starts from: both dump directories (scanned with the -f naming
// rules), the scenario they make with the rule files (msaccucmp's checks), and the rule.
struct FusionInputs {
  Inventory left, right;
  CompareScenario scenario;
  FusionRule rule;
};
FusionInputs load_fusion_inputs(const CompareOptions& options);

// The groups to visit in Index order: all, or those -r / -s select (validated against the largest
// OpSequence; a selection warning goes to `warning`).
std::vector<int64_t> selected_groups(const FusionRule& rule, const CompareOptions& options,
                                     std::string& warning);

std::string join_names(const std::vector<std::string>& items);

// The NPUDump / GroundTruth strings of a group's rows (FusionOpComResult).
struct GroupNames {
  std::string my, golden;
};
// One-to-one and many-to-one groups: the op, and its original names (or "*").
GroupNames any_to_one_names(const FusionOp& op);
// Other groups: ops gathered by their joined original names, in first-appearance order.
GroupNames any_to_multi_names(const FusionRule& rule, const FusionGroup& group);
GroupNames group_names(const FusionRule& rule, const FusionGroup& group, const FusionOp& op);

// Where the golden of an NPU tensor is: the producer (inputs) or the op itself (outputs),
// Cast/TransData looked through, its origin tensor, then that tensor's file on the right side.
struct GoldenRef {
  const OpDumps* dumps = nullptr;
  OriginTensor origin;
  bool offline = false;  // the right side is an NPU dump: the origin index picks its output
  // The op (and its output) whose origin tensor is the golden, set once that tensor is known, even
  // when its file is then missing: msaccucmp's op_name_origin_output_index_map entry.
  const FusionOp* source = nullptr;
  int source_index = 0;
  bool bad_rule = false;  // not found because the rule names an op or input it does not hold
};
bool find_golden_file(const FusionRule& rule, const Inventory& right, const FusionOp& op,
                      TensorGroup group, int index, const std::string& tensor_id, GoldenRef& ref,
                      std::string& error);

}  // namespace dumpcmp
