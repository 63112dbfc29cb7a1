#include "compare/npu_pairing.hpp"

#include <string_view>
#include <unordered_set>

#include "compare/compare_messages.hpp"

namespace dumpcmp {

std::vector<OpPairing> pair_ops_by_name(const Inventory& left, const Inventory& right) {
  std::vector<OpPairing> ops;
  std::unordered_set<std::string_view> seen;
  for (const OpDumps& l : left.ops()) {
    ops.push_back({static_cast<int64_t>(ops.size()), l.op_name, &l, right.find_key(l.op_name)});
    seen.insert(l.op_name);
  }
  for (const OpDumps& r : right.ops()) {
    if (seen.count(r.op_name) == 0) {
      ops.push_back({static_cast<int64_t>(ops.size()), r.op_name, nullptr, &r});
    }
  }
  return ops;
}

std::string missing_side_message(const OpPairing& op) {
  return op.right ? msg::no_my_output_dump_for_op(op.name)
                  : msg::no_ground_truth_dump_for_op(op.name);
}

namespace {

// msaccucmp's check_tensor_valid for one group: empty message when the group can be compared.
std::string check_group(const std::string& op, TensorGroup group, const std::vector<TensorInfo>& l,
                        const std::vector<TensorInfo>& r) {
  const std::string type(tensor_group_name(group));
  if (l.size() != r.size()) return msg::tensor_count_mismatch(op, type, l.size(), r.size());
  if (l.empty()) return msg::no_tensors_skipped(op, type);
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (l[i].shape != r[i].shape) {
      return msg::tensor_shape_mismatch(op, l[i].shape, r[i].shape,
                                        op + ":" + type + ":" + std::to_string(i));
    }
  }
  return {};
}

}  // namespace

OpTensorPlan pair_op_tensors(const std::string& op_name, const DumpFile& left,
                             const DumpFile& right) {
  OpTensorPlan plan;
  for (TensorGroup group : {TensorGroup::kInput, TensorGroup::kOutput}) {
    const auto& l = left.group(group);
    const std::string problem = check_group(op_name, group, l, right.group(group));
    if (!problem.empty()) {
      plan.reasons.push_back(problem);
      continue;
    }
    for (std::size_t i = 0; i < l.size(); ++i) plan.tensors.push_back({group, static_cast<int>(i)});
  }
  plan.op_failed = plan.tensors.empty();
  if (!plan.op_failed) plan.reasons.clear();  // a skipped group alone leaves no trace in the table
  return plan;
}

}  // namespace dumpcmp
