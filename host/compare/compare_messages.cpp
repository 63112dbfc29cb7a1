#include "compare/compare_messages.hpp"

namespace dumpcmp::msg {

namespace {

// log.print_not_match_error: "[op] The <what> does not match (<left> vs <right>)", then " for
// <tensor_id>." or ".".
std::string not_match(const std::string& op, const std::string& what, const std::string& left,
                      const std::string& right, const std::string& tensor_id) {
  std::string line =
      op_prefixed(op, "The " + what + " does not match (" + left + " vs " + right + ")");
  return tensor_id.empty() ? line + "." : line + " for " + tensor_id + ".";
}

}  // namespace

std::string scenario_side_offline(bool quantized) {
  return std::string("side is dump data of the ") + (quantized ? "quantized" : "unquantized") +
         " model executed on the AI processor";
}

std::string scenario_side_quantized_original() {
  return "side is dump data of the quantized original model";
}

std::string scenario_side_original() {
  return "side is dump data of the unquantized original model";
}

std::string scenario_rejected(const std::string& left_side, const std::string& right_side,
                              const std::string& reason) {
  return "When the left " + left_side + " and the right " + right_side + ", " + reason;
}

std::string scenario_not_comparable() { return "this scenario cannot be compared."; }

std::string scenario_parameter_required(std::string_view flag) {
  return "the " + std::string(flag) + " parameter is required.";
}

std::string scenario_parameter_not_needed(std::string_view flags) {
  return "there is no need to enter the " + std::string(flags) + " parameter.";
}

std::string no_my_output_dump_for_op(const std::string& op) {
  return op_prefixed(op, "There is no the my output dump file for the op \"" + op + "\".");
}

std::string no_ground_truth_dump_for_op(const std::string& op) {
  return op_prefixed(op, "There is no the ground truth dump file for the op \"" + op + "\".");
}

std::string tensor_count_mismatch(const std::string& op, std::string_view type, std::size_t left,
                                  std::size_t right) {
  return not_match(op, "number of " + std::string(type), std::to_string(left),
                   std::to_string(right), {});
}

std::string no_tensors_skipped(const std::string& op, std::string_view type) {
  const std::string t(type);
  return op_prefixed(op, "There is no " + t + ". Skip the " + op + ":" + t + ".");
}

std::string tensor_shape_mismatch(const std::string& op, const Shape& left, const Shape& right,
                                  const std::string& tensor_id) {
  return not_match(op, "shape", shape(left), shape(right), tensor_id);
}

std::string ffts_slice_count_mismatch() {
  return "This is a FFTS+ mode dump data, The number of files does not match the number of thread";
}

std::string shape_mismatch_after_restore(const std::string& op, int64_t left, int64_t right) {
  return "[" + op + "_TENSOR] Shape mismatch after restore: " + python_tuple({left}) + " vs " +
         python_tuple({right});
}

std::string file_shape_mismatch(const Shape& my_shape, const std::string& my_path,
                                const Shape& golden_shape, const std::string& golden_path) {
  return "My output shape " + shape(my_shape) + " in '" + my_path +
         "' does not match the ground truth shape " + shape(golden_shape) + " in '" + golden_path +
         "'.";
}

}  // namespace dumpcmp::msg
