#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {
namespace {

// repr() of a Python tuple of ints: "(1, 3)", "(5,)", "()".
std::string python_tuple(const Shape& s) {
  return s.size() == 1 ? "(" + std::to_string(s[0]) + ",)" : format_dims(s, "(", ", ", ")");
}

// log.print_not_match_error: "[op] The <what> does not match (<left> vs <right>)", then " for
// <tensor_id>." or ".".
std::string not_match(const std::string& op, const std::string& what, const std::string& left,
                      const std::string& right, const std::string& tensor_id) {
  std::string line =
      op_prefixed(op, "The " + what + " does not match (" + left + " vs " + right + ")");
  return tensor_id.empty() ? line + "." : line + " for " + tensor_id + ".";
}

// "Failed to execute '<function>' in '<module>'. <reason>": how msaccucmp wraps an exception
// raised inside a converter or an algorithm.
std::string failed_to_execute(std::string_view function, std::string_view module,
                              const std::string& reason) {
  return "Failed to execute '" + std::string(function) + "' in '" + std::string(module) + "'. " +
         reason;
}

constexpr std::string_view kCannotCompareStart =
    "Due to the different shapes on the left and right,the left dump data";

std::string cannot_compare_text(const std::string& left, const std::string& right) {
  return std::string(kCannotCompareStart) + left + " can not be compared to the right dump data" +
         right +
         ". Please check the batch of the dump data or the shape may be changed due to "
         "optimization.";
}

}  // namespace

// ---- Spellings

std::string_view ms_format_name(Format f) {
  // msaccucmp's table lacks NC, NCL, FRACTAL_Z_WINO and C1HWC0 and spells a few names its own way.
  switch (f) {
    case Format::kFractalDeconvSpStride8Trans:
      return "DECONV_SP_STRIDE8_TRANS";
    case Format::kHashtableLookupLookups:
      return "LOOKUP_LOOKUPS";
    case Format::kHashtableLookupKeys:
      return "LOOKUP_KEYS";
    case Format::kHashtableLookupValue:
      return "LOOKUP_VALUE";
    case Format::kHashtableLookupOutput:
      return "LOOKUP_OUTPUT";
    case Format::kHashtableLookupHits:
      return "LOOKUP_HITS";
    case Format::kNC:
    case Format::kNCL:
    case Format::kFractalZWino:
    case Format::kC1HWC0:
      return {};
    default:
      return dumpcmp::format_name(f);
  }
}

std::string shape(const Shape& s) { return shape_to_tuple_string(s); }

std::string numpy_shape(const Shape& s) {
  return s.size() == 1 ? format_dims(s, "(", ",", ",)") : format_dims(s, "(", ",", ")");
}

std::string op_prefixed(const std::string& op, const std::string& message) {
  return "[" + op + "] " + message;
}

// ---- Python and numpy exception texts

std::string index_error() { return "list index out of range"; }

std::string zero_division() { return "integer division or modulo by zero"; }

std::string empty_reduce() { return "reduce() of empty iterable with no initial value"; }

std::string axes_mismatch() { return "axes don't match array"; }

std::string too_few_values_to_unpack(int expected, std::size_t got) {
  return "not enough values to unpack (expected " + std::to_string(expected) + ", got " +
         std::to_string(got) + ")";
}

std::string too_many_values_to_unpack(int expected) {
  return "too many values to unpack (expected " + std::to_string(expected) + ")";
}

std::string convert_takes_no_group() {
  return "convert() takes 3 positional arguments but 4 were given";
}

std::string index_out_of_bounds_code() { return "12"; }

std::string cannot_reshape(int64_t size, const std::string& shape_text) {
  return "cannot reshape array of size " + std::to_string(size) + " into shape " + shape_text;
}

std::string empty_max_reduction() {
  return "zero-size array to reduction operation maximum which has no identity";
}

std::string bool_subtract() {
  return "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
         "operator, or the logical_xor function instead.";
}

// ---- Layout conversion

std::string format_code_not_supported(int code) {
  return "The format(" + std::to_string(code) + ") does not support.";
}

std::string conversion_not_supported(Format src, Format dst) {
  return "Not supported from " + std::string(ms_format_name(src)) + " to " +
         std::string(ms_format_name(dst)) + ".";
}

std::string convert_failed(Format src, Format dst, const std::string& reason) {
  return failed_to_execute(
      "convert",
      "convert_" + std::string(ms_format_name(src)) + "_to_" + std::string(ms_format_name(dst)),
      reason);
}

std::string nz_target_shape_missing() {
  return "The format before transfer is FRACTAL_NZ. Please enter a valid shape.";
}

std::string nz_target_shape_invalid(const Shape& target, const Shape& recommended) {
  return "The target shape " + shape(target) + " is invalid. The recommended shape is " +
         shape(recommended) + ".";
}

std::string nz_target_leading_dims_invalid(const Shape& target, const Shape& recommended) {
  return "The target shape " + shape(target) + " is invalid, the recommended shape is " +
         shape(recommended) + ".";
}

std::string nz_to_nd_length_mismatch() {
  return "Cannot convert FRACTAL_NZ to ND, the reason is the length of array is not equal to the "
         "length of dest shape.";
}

std::string slice_failed(const Shape& from, const Shape& to, const std::string& reason) {
  return "Failed to slice data from " + shape(from) + " to " + shape(to) + ". " + reason;
}

std::string cannot_compare(const Shape& left, const Shape& right) {
  return cannot_compare_text(shape(left), shape(right));
}

std::string cannot_compare_sizes(int64_t left, int64_t right) {
  return cannot_compare_text("(" + std::to_string(left) + ")", "(" + std::to_string(right) + ")");
}

bool is_cannot_compare(std::string_view message) {
  return message.substr(0, kCannotCompareStart.size()) == kCannotCompareStart;
}

// ---- Compare scenario

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

// ---- NPU vs NPU and file compare

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

std::string output_dtype_not_supported(int code) {
  return "The output data type (" + std::to_string(code) + ") does not support.";
}

std::string file_shape_mismatch(const Shape& my_shape, const std::string& my_path,
                                const Shape& golden_shape, const std::string& golden_path) {
  return "My output shape " + shape(my_shape) + " in '" + my_path +
         "' does not match the ground truth shape " + shape(golden_shape) + " in '" + golden_path +
         "'.";
}

// ---- Metrics

std::string compare_failed(std::string_view metric, const std::string& reason) {
  return failed_to_execute("compare", metric, reason);
}

std::string cosine_all_zero(const std::string& path) {
  return "Cannot compare by Cosine Similarity. All the data is zero in " + path + ".";
}

std::string scalar_tensor() { return "This tensor is scalar."; }

std::string kld_contains_zero(const std::string& path) {
  return "Cannot compare by KL Divergence. The data contains 0 in '" + path + "'.";
}

std::string boolean_not_supported(std::string_view metric) {
  return "Algorithm " + std::string(metric) + " does not support Boolean types.";
}

// ---- Fusion-rule compare

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

// ---- Operator selection, -map, indexes

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

std::string convert_format_not_supported(const std::string& format) {
  return "The format \"" + format + "\" is not supported. Please check the format.";
}

// ---- Single-op detail

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

// ---- convert and overflow

std::string no_valid_file(const std::string& paths) {
  return "There is no valid file in \"" + paths + "\". Please check the path.";
}

std::string dump_path_empty() { return "The dump path is empty."; }

std::string no_tensors_in(std::string_view type, const std::string& path) {
  return "There is no " + std::string(type) + " in \"" + path + "\".";
}

std::string tensor_parse_failed(const std::string& label, const std::string& path) {
  return "Failed to parse the data of " + label + " in \"" + path + "\".";
}

std::string convert_format_failed(const std::string& label, const std::string& path,
                                  const std::string& reason) {
  return "Failed to convert format for " + label + " of \"" + path + "\". " + reason;
}

std::string shape_dim_not_positive(const std::string& text) {
  return "The shape(" + text + ") is invalid. Each dimension must be greater than 0.";
}

std::string shape_text_invalid(const std::string& text) {
  return "The shape(" + text + ") is invalid. The supported formats are \"1,3,224,224\".";
}

std::string directory_ignores_tensor_arguments() {
  return "The dump path is a directory. If the -o, -i and -s arguments exist, these arguments "
         "will be ignored.";
}

std::string overflow_dump_dir_invalid(const std::string& dir) {
  return "[Overflow] the -d parameter: \"" + dir + "\" is invalid!";
}

// ---- batch mode

std::string batch_single_op_refused(const std::string& op) {
  return "the " + op + " single operator comparison is not supported for batch network comparison.";
}

std::string batch_path_not_timestamp(const std::string& path) {
  return "The " + path + " path must end with a timestamp.";
}

std::string batch_no_rule_json(const std::string& dir) {
  return "There is no fusion rule json file in \"'" + dir + "'\".";
}

std::string batch_path_format(const std::string& path) {
  return "The " + path +
         " does not match the path format,please save dump files in the "
         "dump_path/time/device_id/model_name/model_id/dump_step/dump_file path format";
}

std::string batch_no_graph_match(const std::string& path) {
  return "The " + path + " not match fusion rule file";
}

std::string batch_time_stamps_differ(const std::string& graph, const std::string& leaves) {
  return "The " + graph + " and in " + leaves +
         " dump data are not generated at the same time. The result may be incorrect.";
}

}  // namespace dumpcmp::msg
