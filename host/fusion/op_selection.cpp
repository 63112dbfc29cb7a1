#include "fusion/op_selection.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/text.hpp"
#include "fusion/fusion_messages.hpp"

namespace dumpcmp {

OpSelection OpSelection::parse_range(const std::string& text) {
  OpSelection s;
  s.text_ = text;
  const std::vector<std::string> parts = split_commas(text);
  if (parts.size() != 3) {
    throw Error(ExitCode::kUsage, msg::range_not_three_fields(text));
  }
  int64_t* fields[3] = {&s.start_, &s.end_, &s.step_};
  for (size_t i = 0; i < 3; ++i) {
    const std::string value = trim(parts[i]);
    if (value.empty() || (i == 1 && value == "-1")) continue;
    const std::optional<int64_t> number = parse_natural(value);
    if (!number) {
      throw Error(ExitCode::kUsage, msg::range_field_not_number(text));
    }
    *fields[i] = *number;
  }
  return s;
}

OpSelection OpSelection::parse_select(const std::string& text) {
  OpSelection s;
  s.range_ = false;
  s.text_ = text;
  std::set<int64_t> ids;
  for (const std::string& part : split_commas(text)) {
    const std::string value = trim(part);
    if (value.empty()) continue;
    const std::optional<int64_t> number = parse_natural(value);
    if (!number) {
      throw Error(ExitCode::kUsage, msg::select_entry_invalid(text));
    }
    ids.insert(*number);
  }
  s.ids_.assign(ids.begin(), ids.end());
  return s;
}

void OpSelection::validate(int64_t max_sequence, std::string& warning) {
  const std::string bounds = "[1, " + std::to_string(max_sequence) + "]";
  if (range_) {
    if (start_ < 1 || start_ > max_sequence) {
      throw Error(ExitCode::kUsage, msg::index_out_of_range("", "start", start_, bounds));
    }
    if (end_ == -1) end_ = max_sequence;
    if (end_ < start_ || end_ > max_sequence) {
      throw Error(ExitCode::kUsage, msg::index_out_of_range("", "end", end_, bounds));
    }
    if (step_ < 1 || step_ >= max_sequence) {
      throw Error(
          ExitCode::kUsage,
          msg::index_out_of_range("", "step", step_, "[1, " + std::to_string(max_sequence) + ")"));
    }
    return;
  }
  std::vector<int64_t> kept, dropped;
  for (int64_t id : ids_) (id <= max_sequence ? kept : dropped).push_back(id);
  if (!dropped.empty()) {
    const std::string message = msg::select_out_of_range(dropped, max_sequence);
    if (kept.empty()) throw Error(ExitCode::kUsage, message);
    warning = message;
  }
  ids_ = std::move(kept);
}

bool OpSelection::selects(int64_t sequence) const {
  if (!range_) return std::binary_search(ids_.begin(), ids_.end(), sequence);
  if (sequence < start_ || sequence > end_) return false;
  return sequence == start_ || sequence == end_ || (sequence - start_) % step_ == 0;
}

std::vector<int64_t> OpSelection::groups(const FusionRule& rule) const {
  std::set<int64_t> ids;
  for (const int i : rule.ops_by_sequence()) {
    const FusionOp& op = rule.ops()[static_cast<size_t>(i)];
    if (!selects(op.op_sequence)) continue;
    // msaccucmp maps the name to the group it was last keyed to.
    const FusionOp* named = rule.find_op(op.name);
    if (named != nullptr) ids.insert(rule.group_of(*named).id);
  }
  return {ids.begin(), ids.end()};
}

}  // namespace dumpcmp
