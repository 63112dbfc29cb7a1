// msaccucmp's merge_fusion_rule (fusion_rule_parser.py): OM rule + AMCT quant rule, §5.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "fusion/fusion_rule_builder.hpp"
#include "fusion/quant_rule.hpp"

namespace dumpcmp {
namespace {

// A desc an OM op takes from the quant rule: (quant op, desc index), or op -1 for the empty desc
// msaccucmp makes when the index is past the quant op's descs.
struct DescRef {
  int op = -1;
  size_t desc = 0;
};

void take_om_layout(OutputDesc& quant_desc, const OutputDesc& om_desc) {
  if (om_desc.origin_format.empty()) return;
  quant_desc.origin_format = om_desc.origin_format;
  quant_desc.origin_shape = om_desc.origin_shape;
}

}  // namespace

FusionRule merge_quant_rule(const FusionRule& om, const FusionRule& quant) {
  FusionRule out = om;
  // msaccucmp hands out the quant rule's desc objects themselves, so a later layout override of
  // one desc shows through every op that took it: overrides go to this shared copy, and the ops'
  // descs are materialised from it at the end.
  std::vector<std::vector<OutputDesc>> quant_descs;
  quant_descs.reserve(quant.ops_.size());
  for (const FusionOp& op : quant.ops_) quant_descs.push_back(op.output_desc);
  std::vector<std::vector<DescRef>> taken(out.ops_.size());

  std::vector<FusionGroup> groups;
  std::vector<std::string> group_keys;
  std::unordered_map<std::string, int> key_to_group;
  std::unordered_map<std::string, int> name_to_group;

  for (const FusionGroup& om_group : om.groups_) {
    for (const int op_index : om_group.ops) {
      FusionOp& op = out.ops_[static_cast<size_t>(op_index)];

      std::vector<std::string> originals;
      std::unordered_set<std::string> seen;
      for (const std::string& name : op.original_op_names) {
        const auto hit = quant.name_to_group_.find(name);
        if (hit == quant.name_to_group_.end()) continue;
        for (const int q : quant.groups_[static_cast<size_t>(hit->second)].ops) {
          for (const std::string& original : quant.ops_[static_cast<size_t>(q)].original_op_names) {
            if (seen.insert(original).second) originals.push_back(original);
          }
        }
      }
      if (!originals.empty()) op.original_op_names = std::move(originals);

      std::vector<DescRef>& refs = taken[static_cast<size_t>(op_index)];
      for (const OutputDesc& desc : op.output_desc) {
        if (desc.origin_name.empty()) continue;
        const auto hit = quant.name_to_group_.find(desc.origin_name);
        if (hit == quant.name_to_group_.end()) continue;  // msaccucmp warns and keeps the OM desc
        for (const int q : quant.groups_[static_cast<size_t>(hit->second)].ops) {
          std::vector<OutputDesc>& descs = quant_descs[static_cast<size_t>(q)];
          if (!desc.has_origin_output_index) {  // index None: every desc of every group op
            for (size_t k = 0; k < descs.size(); ++k) {
              take_om_layout(descs[k], desc);
              refs.push_back({q, k});
            }
            continue;
          }
          if (quant.ops_[static_cast<size_t>(q)].name != desc.origin_name) continue;
          const int64_t count = static_cast<int64_t>(descs.size());
          int64_t index = desc.origin_output_index;
          if (index >= count) {
            refs.push_back({-1, 0});
            continue;
          }
          if (index < 0) index += count;  // Python's negative list index
          if (index < 0) {
            throw format_error(om.source_, "op \"" + op.name + "\": origin output index " +
                                               std::to_string(desc.origin_output_index) + " of \"" +
                                               desc.origin_name +
                                               "\" is out of range in the quant rule");
          }
          take_om_layout(descs[static_cast<size_t>(index)], desc);
          refs.push_back({q, static_cast<size_t>(index)});
        }
      }

      // Re-keyed by original names only: the L1 number is not passed here in msaccucmp.
      std::string key = fusion_group_key(op.name, "", op.original_op_names);
      int group_index = 0;
      const auto found = key_to_group.find(key);
      if (found != key_to_group.end()) {
        group_index = found->second;
      } else {
        group_index = static_cast<int>(groups.size());
        FusionGroup group;
        group.id = group_index;
        group.key_is_uuid = key[0] == 'u';
        group.key = key.substr(1);
        groups.push_back(std::move(group));
        group_keys.push_back(key);
        key_to_group.emplace(std::move(key), group_index);
      }
      op.group_id = group_index;
      groups[static_cast<size_t>(group_index)].ops.push_back(op_index);
      name_to_group[op.name] = group_index;
    }
  }

  for (size_t i = 0; i < out.ops_.size(); ++i) {
    if (taken[i].empty()) continue;
    std::vector<OutputDesc> descs;
    descs.reserve(taken[i].size());
    for (const DescRef& ref : taken[i]) {
      if (ref.op < 0) {
        OutputDesc empty;
        empty.has_origin_output_index = false;
        descs.push_back(std::move(empty));
      } else {
        descs.push_back(quant_descs[static_cast<size_t>(ref.op)][ref.desc]);
      }
    }
    out.ops_[i].output_desc = std::move(descs);
  }

  out.groups_ = std::move(groups);
  out.group_keys_ = std::move(group_keys);
  out.key_to_group_ = std::move(key_to_group);
  out.name_to_group_ = std::move(name_to_group);
  out.finish_groups();
  return out;
}

}  // namespace dumpcmp
