// msaccucmp's merge_close_and_open_fusion_rule (fusion_rule_parser.py), described in
// close_fusion_rule.hpp.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "fusion/close_fusion_rule.hpp"

namespace dumpcmp {
namespace {

bool same_origin(const OutputDesc& a, const OutputDesc& b) {
  if (a.origin_name != b.origin_name) return false;
  if (a.has_origin_output_index != b.has_origin_output_index) return false;  // None vs a number
  return !a.has_origin_output_index || a.origin_output_index == b.origin_output_index;
}

}  // namespace

FusionRule merge_close_fusion_rule(const FusionRule& open, const FusionRule& close) {
  // Original name -> the unfused op holding it (the later op in OpSequence order wins).
  std::unordered_map<std::string, std::string> close_op_of;
  for (const int i : close.sequence_order_) {
    const FusionOp& op = close.ops_[static_cast<size_t>(i)];
    for (const std::string& original : op.original_op_names) close_op_of[original] = op.name;
  }

  // The open rule's op names in first-appearance order, walked backwards.
  std::vector<std::string> names;
  std::unordered_set<std::string> seen_names;
  for (const FusionOp& op : open.ops_) {
    if (seen_names.insert(op.name).second) names.push_back(op.name);
  }

  FusionRule out = open;
  for (FusionGroup& group : out.groups_) group.ops.clear();
  out.name_to_group_.clear();
  out.input_nodes_.clear();
  std::vector<int> visit_order;
  std::unordered_set<int> done_groups;
  std::unordered_set<std::string> taken_open, taken_close;

  for (auto name = names.rbegin(); name != names.rend(); ++name) {
    const int group_index = open.name_to_group_.at(*name);
    if (!done_groups.insert(group_index).second) continue;
    out.name_to_group_[*name] = group_index;
    for (const int op_index : open.groups_[static_cast<size_t>(group_index)].ops) {
      FusionOp& op = out.ops_[static_cast<size_t>(op_index)];
      const std::string first = op.original_op_names.empty() ? "" : op.original_op_names.front();
      if (!taken_open.insert(first).second) continue;
      const auto close_op = close_op_of.find(first);
      if (close_op != close_op_of.end() && !taken_close.insert(close_op->second).second) continue;

      if (!(op.original_op_names.size() == 1 && op.original_op_names.front().empty())) {
        std::vector<std::string> renamed;
        for (const std::string& original : op.original_op_names) {
          const auto hit = close_op_of.find(original);
          if (hit == close_op_of.end()) continue;  // msaccucmp warns and drops the name
          if (std::find(renamed.begin(), renamed.end(), hit->second) == renamed.end()) {
            renamed.push_back(hit->second);
          }
        }
        op.original_op_names = std::move(renamed);
      }
      for (OutputDesc& desc : op.output_desc) {
        if (desc.origin_name.empty()) continue;
        const auto hit = close_op_of.find(desc.origin_name);
        if (hit == close_op_of.end()) continue;  // msaccucmp warns and keeps the desc
        const FusionOp* holder = close.find_op(hit->second);
        if (holder != nullptr) {
          // The first unfused op of the holder's group with a desc of the same origin gives the
          // output index.
          bool found = false;
          for (const int c : close.group_of(*holder).ops) {
            const std::vector<OutputDesc>& descs = close.ops_[static_cast<size_t>(c)].output_desc;
            for (size_t k = 0; k < descs.size() && !found; ++k) {
              if (!same_origin(desc, descs[k])) continue;
              desc.origin_output_index = static_cast<int>(k);
              desc.has_origin_output_index = true;
              found = true;
            }
            if (found) break;
          }
        }
        desc.origin_name = hit->second;
      }
      out.groups_[static_cast<size_t>(group_index)].ops.push_back(op_index);
      visit_order.push_back(op_index);
    }
  }
  out.finish_groups();
  // msaccucmp's op_list: each kept op inserted at the front, not sorted again.
  std::reverse(visit_order.begin(), visit_order.end());
  out.sequence_order_ = std::move(visit_order);
  return out;
}

}  // namespace dumpcmp
