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

// The original names of the quant groups the op's original names are in, each once; empty when
// none is.
std::vector<std::string> quant_originals(const FusionOp& op, const FusionRule& quant) {
  std::vector<std::string> originals;
  std::unordered_set<std::string> seen;
  for (const std::string& name : op.original_op_names) {
    const FusionGroup* group = quant.group_named(name);
    if (group == nullptr) continue;
    for (const int q : group->ops) {
      for (const std::string& original : quant.ops()[static_cast<size_t>(q)].original_op_names) {
        if (seen.insert(original).second) originals.push_back(original);
      }
    }
  }
  return originals;
}

// msaccucmp hands out the quant rule's desc objects themselves, so a later layout override of one
// desc shows through every op that took it: overrides go to one shared copy of the quant descs,
// and each op's descs are materialised from it at the end.
class QuantDescs {
 public:
  explicit QuantDescs(const FusionRule& quant) : quant_(quant) {
    descs_.reserve(quant.ops().size());
    for (const FusionOp& op : quant.ops()) descs_.push_back(op.output_desc);
  }

  // The quant descs that the OM op's descs name by origin name and index.
  std::vector<DescRef> take(const FusionOp& op, const std::string& om_source) {
    std::vector<DescRef> refs;
    for (const OutputDesc& desc : op.output_desc) {
      if (desc.origin_name.empty()) continue;
      const FusionGroup* group = quant_.group_named(desc.origin_name);
      if (group == nullptr) continue;  // msaccucmp warns and keeps the OM desc
      for (const int q : group->ops) {
        std::vector<OutputDesc>& descs = descs_[static_cast<size_t>(q)];
        if (!desc.has_origin_output_index) {  // index None: every desc of every group op
          for (size_t k = 0; k < descs.size(); ++k) {
            take_om_layout(descs[k], desc);
            refs.push_back({q, k});
          }
          continue;
        }
        if (quant_.ops()[static_cast<size_t>(q)].name != desc.origin_name) continue;
        const int64_t count = static_cast<int64_t>(descs.size());
        int64_t index = desc.origin_output_index;
        if (index >= count) {
          refs.push_back({-1, 0});
          continue;
        }
        if (index < 0) index += count;  // Python's negative list index
        if (index < 0) {
          throw format_error(om_source, "op \"" + op.name + "\": origin output index " +
                                            std::to_string(desc.origin_output_index) + " of \"" +
                                            desc.origin_name +
                                            "\" is out of range in the quant rule");
        }
        take_om_layout(descs[static_cast<size_t>(index)], desc);
        refs.push_back({q, static_cast<size_t>(index)});
      }
    }
    return refs;
  }

  std::vector<OutputDesc> materialise(const std::vector<DescRef>& refs) const {
    std::vector<OutputDesc> out;
    out.reserve(refs.size());
    for (const DescRef& ref : refs) {
      if (ref.op < 0) {
        OutputDesc empty;
        empty.has_origin_output_index = false;
        out.push_back(std::move(empty));
      } else {
        out.push_back(descs_[static_cast<size_t>(ref.op)][ref.desc]);
      }
    }
    return out;
  }

 private:
  const FusionRule& quant_;
  std::vector<std::vector<OutputDesc>> descs_;
};

}  // namespace

FusionRule merge_quant_rule(const FusionRule& om, const FusionRule& quant) {
  FusionRule out = om;
  QuantDescs quant_descs(quant);
  std::vector<std::vector<DescRef>> taken(out.ops_.size());
  out.groups_.clear();
  out.group_keys_.clear();
  out.key_to_group_.clear();
  out.name_to_group_.clear();

  for (const FusionGroup& om_group : om.groups_) {
    for (const int op_index : om_group.ops) {
      FusionOp& op = out.ops_[static_cast<size_t>(op_index)];
      std::vector<std::string> originals = quant_originals(op, quant);
      if (!originals.empty()) op.original_op_names = std::move(originals);
      taken[static_cast<size_t>(op_index)] = quant_descs.take(op, om.source_);
      // Re-keyed by original names only: the L1 number is not passed here in msaccucmp.
      const int group_index =
          out.group_for_key(fusion_group_key(op.name, "", op.original_op_names));
      op.group_id = group_index;
      out.groups_[static_cast<size_t>(group_index)].ops.push_back(op_index);
      out.name_to_group_[op.name] = group_index;
    }
  }
  for (size_t i = 0; i < out.ops_.size(); ++i) {
    if (!taken[i].empty()) out.ops_[i].output_desc = quant_descs.materialise(taken[i]);
  }
  out.finish_groups();
  return out;
}

}  // namespace dumpcmp
