#pragma once
// Grouping of parsed ops into a FusionRule (docs/formats.md §4.2 rules 5-9), apart from JSON.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

// msaccucmp's make_fusion_op_name: the tagged map key ('s'+text, or 'u'+uuid so that a uuid
// never equals a name, as in Python where the key is a UUID object).
std::string fusion_group_key(std::string_view op_name, std::string_view l1_fusion_no,
                             const std::vector<std::string>& original_op_names);

class FusionRuleBuilder {
 public:
  explicit FusionRuleBuilder(std::string source);

  // Capacity for the expected number of ops (an upper bound of the kept ops and groups).
  void reserve(size_t op_count);
  // One op, in file order. `raw_name` is the JSON name before _lxslice removal.
  void add_op(FusionOp op, std::string_view raw_name);
  // "rename nodes" (rule 8), run by msaccucmp after each graph.
  void end_graph();
  // Relations, op_sequence order and the QuantFilter pass.
  FusionRule finish();

 private:
  FusionRule rule_;
  std::vector<int> touched_groups_;  // groups an op of the current graph was keyed to
  // For names seen more than once: the groups holding a kept op of that name.
  std::unordered_map<std::string, std::vector<int>> repeated_names_;
};

}  // namespace dumpcmp
