// Grouping of ops by fusion key, as msaccucmp's _parse_op_object / _adjust_rename_node do.
#include "fusion/fusion_rule_builder.hpp"

#include <algorithm>
#include <utility>

#include "fusion/quant_rule.hpp"

namespace dumpcmp {

std::string fusion_group_key(std::string_view op_name, std::string_view l1_fusion_no,
                             const std::vector<std::string>& original_op_names) {
  std::string key;
  if (!l1_fusion_no.empty()) {
    key.reserve(l1_fusion_no.size() + 1);
    key.push_back('s');
    key.append(l1_fusion_no);
  } else if (original_op_names.size() == 1) {
    const std::string& only = original_op_names.front();
    key.push_back('s');
    key.append(only.empty() ? op_name : std::string_view(only));
  } else if (original_op_names.size() > 1) {
    std::string joined;
    for (const std::string& name : original_op_names) joined += name;
    key = "u" + uuid3_dns(joined);
  } else {
    key.push_back('s');  // an empty list.s: the op's own name
    key.append(op_name);
  }
  return key;
}

FusionRuleBuilder::FusionRuleBuilder(std::string source) { rule_.source_ = std::move(source); }

void FusionRuleBuilder::reserve(size_t op_count) {
  rule_.ops_.reserve(op_count);
  rule_.groups_.reserve(op_count);
  rule_.group_keys_.reserve(op_count);
  rule_.key_to_group_.reserve(op_count);
  rule_.name_to_group_.reserve(op_count);
}

void FusionRuleBuilder::add_op(FusionOp op, std::string_view raw_name) {
  if (op.type == "Data" && !raw_name.empty()) rule_.input_nodes_.emplace_back(raw_name);

  // Rule 5: an op without _datadump_original_op_names describes itself.
  if (!op.have_origin) {
    if (op.output_desc.empty()) {
      OutputDesc self;
      self.origin_name = op.name;
      self.has_origin_output_index = false;
      op.output_desc.push_back(std::move(self));
    } else {
      for (OutputDesc& desc : op.output_desc) {
        if (desc.origin_name.empty()) desc.origin_name = op.name;
      }
    }
  }

  const int group_index =
      rule_.group_for_key(fusion_group_key(op.name, op.l1_fusion_no, op.original_op_names));
  touched_groups_.push_back(group_index);

  // A second op of the same name in one group is ignored, but still re-keys the name.
  const auto [name_at, new_name] = rule_.name_to_group_.try_emplace(op.name, group_index);
  if (!new_name) {
    const int previous = name_at->second;
    name_at->second = group_index;
    // Names seen twice get a list of the groups holding them; the first holder is `previous`.
    std::vector<int>& holders =
        repeated_names_.try_emplace(op.name, std::vector<int>{previous}).first->second;
    if (std::find(holders.begin(), holders.end(), group_index) != holders.end()) return;
    holders.push_back(group_index);
  }

  op.group_id = group_index;
  rule_.groups_[static_cast<size_t>(group_index)].ops.push_back(
      static_cast<int>(rule_.ops_.size()));
  rule_.ops_.push_back(std::move(op));
}

void FusionRuleBuilder::end_graph() {
  // msaccucmp walks every group; only groups touched in this graph can newly qualify, and the
  // fill-in is idempotent, so walking those is equivalent.
  for (const int group_index : touched_groups_) {
    const FusionGroup& group = rule_.groups_[static_cast<size_t>(group_index)];
    if (group.ops.size() != 1) continue;
    FusionOp& op = rule_.ops_[static_cast<size_t>(group.ops.front())];
    if (op.original_op_names.size() != 1) continue;
    const std::string& original = op.original_op_names.front();
    const int keyed = rule_.name_to_group_.at(op.name);
    const std::string& key = rule_.group_keys_[static_cast<size_t>(keyed)];
    if (key[0] != 's' || std::string_view(key).substr(1) != original) continue;
    if (op.output_desc.empty()) {
      OutputDesc desc;
      desc.origin_name = original;
      desc.has_origin_output_index = false;
      op.output_desc.push_back(std::move(desc));
    } else {
      for (OutputDesc& desc : op.output_desc) {
        if (desc.origin_name.empty()) desc.origin_name = original;
      }
    }
  }
  touched_groups_.clear();
}

FusionRule FusionRuleBuilder::finish() {
  end_graph();
  rule_.finish_groups();
  apply_quant_filter(rule_);
  repeated_names_.clear();
  return std::move(rule_);
}

}  // namespace dumpcmp
