// FusionRule queries and the per-group facts derived once the groups are complete.
#include "fusion/fusion_rule.hpp"

#include <algorithm>
#include <string>

namespace dumpcmp {

std::string_view fusion_relation_name(FusionRelation relation) {
  switch (relation) {
    case FusionRelation::kOneToOne:
      return "OneToOne";
    case FusionRelation::kMultiToOne:
      return "MultiToOne";
    case FusionRelation::kOneToMulti:
      return "OneToMulti";
    case FusionRelation::kMultiToMulti:
      return "MultiToMulti";
    case FusionRelation::kL1Fusion:
      return "L1Fusion";
  }
  return "";
}

const FusionGroup& FusionRule::group_of(const FusionOp& op) const {
  return groups_.at(static_cast<size_t>(op.group_id));
}

int FusionRule::group_for_key(std::string key) {
  const int next_group = static_cast<int>(groups_.size());
  const auto [at, is_new] = key_to_group_.try_emplace(key, next_group);
  if (is_new) {
    FusionGroup group;
    group.id = next_group;
    group.key_is_uuid = key[0] == 'u';
    group.key = key.substr(1);
    groups_.push_back(std::move(group));
    group_keys_.push_back(std::move(key));
  }
  return at->second;
}

const FusionGroup* FusionRule::group_named(std::string_view name) const {
  const auto it = name_to_group_.find(std::string(name));
  return it == name_to_group_.end() ? nullptr : &groups_[static_cast<size_t>(it->second)];
}

const FusionOp* FusionRule::find_op(std::string_view name) const {
  const FusionGroup* group = group_named(name);
  if (group == nullptr) return nullptr;
  for (const int index : group->ops) {
    const FusionOp& op = ops_[static_cast<size_t>(index)];
    if (op.name == name) return &op;
  }
  return nullptr;
}

namespace {

// msaccucmp's get_relation_for_fusion: decided by the group's size and its first op.
FusionRelation relation_of(const std::vector<FusionOp>& ops, const std::vector<int>& members) {
  const FusionOp& first = ops[static_cast<size_t>(members.front())];
  if (members.size() == 1) {
    return first.original_op_names.size() > 1 ? FusionRelation::kMultiToOne
                                              : FusionRelation::kOneToOne;
  }
  if (!first.l1_fusion_no.empty()) return FusionRelation::kL1Fusion;
  if (first.original_op_names.size() == 1) return FusionRelation::kOneToMulti;
  return FusionRelation::kMultiToMulti;
}

}  // namespace

void FusionRule::finish_groups() {
  for (FusionGroup& group : groups_) {
    if (!group.ops.empty()) group.relation = relation_of(ops_, group.ops);
  }
  sequence_order_.resize(ops_.size());
  for (size_t i = 0; i < ops_.size(); ++i) sequence_order_[i] = static_cast<int>(i);
  // Python's list.sort is stable: equal ids keep file order.
  std::stable_sort(sequence_order_.begin(), sequence_order_.end(), [this](int a, int b) {
    return ops_[static_cast<size_t>(a)].op_sequence < ops_[static_cast<size_t>(b)].op_sequence;
  });
}

}  // namespace dumpcmp
