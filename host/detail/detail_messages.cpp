#include "detail/detail_messages.hpp"

namespace dumpcmp::msg {

std::string max_line_out_of_range(int64_t max_line) {
  return "The --max_line argument index (" + std::to_string(max_line) +
         ") is out of range 10000 - 1000000. Please check the index.";
}

std::string index_not_natural(const std::string& what, const std::string& text) {
  return "The " + what + " index is invalid: " + text + ". It only supports natural number.";
}

std::string detail_type_invalid(const std::string& type) {
  return "The detail type is invalid: " + type + ". It only supports ['input', 'output'].";
}

std::string op_dump_not_found(const std::string& op, std::string_view flag) {
  return "Failed to find " + op + " dump data from " + std::string(flag) + " dump data path.";
}

std::string detail_shape_mismatch(const Shape& mine, const Shape& golden) {
  return "My Output data shape " + python_tuple(mine) + " not equal to Ground Truth data shape " +
         python_tuple(golden) + ".Can not compare.";
}

std::string detail_format_mismatch() {
  return "NPUDump tensor format not match Ground truth tensor format!Cannot be directly compared.";
}

std::string detail_inner_node_skipped(const std::string& op) {
  return op_prefixed(op, "The op is inner node for multi to multi relation. Skip the op.");
}

std::string quant_pair_op_selected(const std::string& op) {
  return op_prefixed(op, "The -op param should not specify an operator in quant/dequant pair.");
}

}  // namespace dumpcmp::msg
