#include "fusion/fusion_messages.hpp"

namespace dumpcmp::msg {

std::string no_left_dump(const std::string& op, const std::string& type) {
  return op_prefixed(
      op, "There is no dump file for my output operator \"" + op + "\". The type is " + type + ".");
}

std::string no_golden_dump(const std::string& op, const std::string& tensor_id) {
  return op_prefixed(op, "There is no the ground truth dump file for " + tensor_id + ".");
}

std::string op_not_in_fusion_rule(const std::string& op) {
  return "There is no \"" + op + "\" in the fusion rule file.";
}

std::string inner_node_skipped(const std::string& op) {
  return op_prefixed(op, "The op is inner node for multi to multi relation.Skip the op.");
}

std::string fusion_op_list_empty() { return "The fusion operator list is empty"; }

std::string ground_truth_format_not_supported(const std::string& format) {
  return "The format \" " + format + " \" is not supported.";
}

std::string output_desc_empty(const std::string& op) {
  return "The output description of the fusion operator \"" + op + "\" is empty.";
}

std::string origin_name_empty(const std::string& op, int index) {
  return "The origin name of the " + op + ":" + std::to_string(index) + " is empty.";
}

std::string input_index_out_of_range(int index, const std::string& op, std::size_t count) {
  return "The input index (" + std::to_string(index) + ") of \"" + op + "\" is out of range (" +
         std::to_string(count) + ").";
}

std::string input_not_name_and_index(const std::string& entry, const std::string& op) {
  return "The input information (" + entry + ") of \"" + op +
         "\" is invalid. It only supports op_name:index.";
}

std::string input_op_name_empty(const std::string& entry, const std::string& op) {
  return "The input information (" + entry + ") of \"" + op +
         "\" is invalid. The input operator name is empty.";
}

std::string input_index_not_number(const std::string& entry, const std::string& op) {
  return "The input information (" + entry + ") of \"" + op +
         "\" is invalid. The input index only supports numbers.";
}

std::string index_out_of_range(const std::string& op, std::string_view kind, int64_t index,
                               const std::string& range) {
  const std::string message = "The " + std::string(kind) + " index (" + std::to_string(index) +
                              ") is out of range " + range + ". Please check the index.";
  return op.empty() ? message : op_prefixed(op, message);
}

std::string index_past_count(const std::string& op, std::string_view kind, int64_t index,
                             std::size_t count) {
  return index_out_of_range(op, kind, index, "[0, " + std::to_string(count) + ")");
}

std::string range_not_three_fields(const std::string& text) {
  return "The range (" + text + ") is invalid, just supports \"start,end,step\".";
}

std::string range_field_not_number(const std::string& text) {
  return "The range (" + text +
         ") is invalid, just supports \"start,end,step\", the value is number.";
}

std::string select_entry_invalid(const std::string& text) {
  return "The index (" + text +
         ") is invalid, just supports \"index_1, index_2, ...\", the value is zero or a positive "
         "number.";
}

std::string select_out_of_range(const std::vector<int64_t>& ids, int64_t max_sequence) {
  std::string list = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) list += (i ? ", " : "") + std::to_string(ids[i]);
  return "Index " + list + "] out of range [1," + std::to_string(max_sequence) + "].";
}

std::string mapping_needs_rule() {
  return "When --mapping or -map exists,there is need to enter the -f or -q parameter.";
}

std::string mapping_excludes_detail() {
  return "When --mapping or -map exists,the -op parameter is invalid.";
}

std::string model_does_not_match(const std::string& range, const std::string& select) {
  if (!range.empty()) return "The model in [" + range + "] range does not match the dump data.";
  if (!select.empty()) {
    return "The model in index list [" + select + "] does not match the dump data.";
  }
  return "The model does not match the dump data, please check the model and the dump data again.";
}

}  // namespace dumpcmp::msg
