#include "compare/fusion_match.hpp"

#include <algorithm>

#include "fusion/close_fusion_rule.hpp"
#include "fusion/fusion_messages.hpp"
#include "fusion/op_selection.hpp"
#include "fusion/quant_rule.hpp"

namespace dumpcmp {

FusionRule load_compare_rule(const CompareOptions& o) {
  if (!o.fusion_rule_path.empty()) {
    FusionRule om = FusionRule::parse_file(o.fusion_rule_path);
    if (!o.quant_rule_path.empty()) {
      return merge_quant_rule(om, FusionRule::parse_file(o.quant_rule_path));
    }
    if (!o.close_fusion_rule_path.empty()) {
      return merge_close_fusion_rule(om, FusionRule::parse_file(o.close_fusion_rule_path));
    }
    return om;
  }
  return FusionRule::parse_file(o.quant_rule_path);
}

FusionInputs load_fusion_inputs(const CompareOptions& options) {
  ScanOptions scan;
  scan.fusion_json = !options.fusion_rule_path.empty();
  scan.ffts = options.ffts;
  Inventory left = Inventory::scan(options.my_path, scan);
  Inventory right = Inventory::scan(options.golden_path, scan);
  const CompareScenario scenario = check_compare_scenario(left, right, options);
  return {std::move(left), std::move(right), scenario, load_compare_rule(options)};
}

std::vector<int64_t> selected_groups(const FusionRule& rule, const CompareOptions& options,
                                     std::string& warning) {
  std::vector<int64_t> groups;
  if (options.range.empty() && options.select.empty()) {
    for (const FusionGroup& g : rule.groups()) {
      if (!g.ops.empty()) groups.push_back(g.id);  // -cf merging can empty a group
    }
    return groups;
  }
  OpSelection selection = options.range.empty() ? OpSelection::parse_select(options.select)
                                                : OpSelection::parse_range(options.range);
  const std::vector<int>& order = rule.ops_by_sequence();
  selection.validate(order.empty() ? 0 : rule.ops()[static_cast<size_t>(order.back())].op_sequence,
                     warning);
  return selection.groups(rule);
}

std::string join_names(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    out += items[i];
  }
  return out;
}

GroupNames any_to_one_names(const FusionOp& op) {
  std::string golden = join_names(op.original_op_names);
  return {op.name, golden.empty() ? "*" : golden};
}

// make_right_to_left_multi_map + make_left_and_right_string: ops grouped by their joined original
// names, in first-appearance order of those strings.
GroupNames any_to_multi_names(const FusionRule& rule, const FusionGroup& group) {
  std::vector<std::string> keys;
  std::vector<std::vector<std::string>> members;
  for (const int i : group.ops) {
    const FusionOp& op = rule.ops()[static_cast<size_t>(i)];
    const std::string key = join_names(op.original_op_names);
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      members.push_back({op.name});
    } else {
      members[static_cast<size_t>(it - keys.begin())].push_back(op.name);
    }
  }
  std::vector<std::string> my;
  for (const auto& m : members) my.insert(my.end(), m.begin(), m.end());
  return {join_names(my), join_names(keys)};
}

GroupNames group_names(const FusionRule& rule, const FusionGroup& group, const FusionOp& op) {
  const bool to_one =
      group.relation == FusionRelation::kOneToOne || group.relation == FusionRelation::kMultiToOne;
  return to_one ? any_to_one_names(op) : any_to_multi_names(rule, group);
}

bool find_golden_file(const FusionRule& rule, const Inventory& right, const FusionOp& op,
                      TensorGroup group, int index, const std::string& tensor_id, GoldenRef& ref,
                      std::string& error) {
  int source_index = 0;
  const FusionOp* source = group == TensorGroup::kInput
                               ? resolve_input_producer(rule, op, index, source_index, error)
                               : resolve_output_source(rule, op, index, source_index, error);
  if (source == nullptr) {
    ref.bad_rule = true;
    return false;
  }
  std::string origin_error;
  const std::optional<OriginTensor> origin = origin_tensor(*source, source_index, origin_error);
  if (!origin) {
    error = msg::no_golden_dump(op.name, tensor_id);  // msaccucmp reports it as a missing file
    return false;
  }
  ref.origin = *origin;
  ref.source = source;
  ref.source_index = source_index;
  ref.offline = right.kind() == DumpNameKind::kOffline;
  ref.dumps = ref.offline ? right.find(origin->name) : right.find(origin->name, origin->index);
  if (ref.dumps == nullptr) {
    error = msg::no_golden_dump(op.name, tensor_id);
    return false;
  }
  return true;
}

}  // namespace dumpcmp
