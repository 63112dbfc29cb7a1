#pragma once
// `-r start,end,step` and `-s i,j,...`: which fusion groups a compare visits, chosen by the ops'
// json "id" (OpSequence), as msaccucmp's RangeMode and SelectMode do (docs/formats.md §4.4).
#include <cstdint>
#include <string>
#include <vector>

#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

class OpSelection {
 public:
  // Throw Error(kUsage) with msaccucmp's message for malformed text.
  static OpSelection parse_range(const std::string& text);
  static OpSelection parse_select(const std::string& text);

  // msaccucmp's check_input_valid against the largest OpSequence of the rule. A range outside
  // [1, max] throws Error(kUsage); selected ids above max are dropped with a warning in `warning`
  // (all of them above max throws).
  void validate(int64_t max_sequence, std::string& warning);
  // Group ids (FusionGroup::id) holding a selected op, ascending.
  std::vector<int64_t> groups(const FusionRule& rule) const;
  // For messages: the text the user gave.
  const std::string& text() const { return text_; }
  bool is_range() const { return range_; }

 private:
  bool selects(int64_t sequence) const;
  bool range_ = true;
  int64_t start_ = 1, end_ = -1, step_ = 1;
  std::vector<int64_t> ids_;  // sorted, unique
  std::string text_;
};

}  // namespace dumpcmp
