#pragma once
// msaccucmp's user-facing messages, in one place: every text dumpcmp shows (CompareFailReason
// cells, errors, warnings) that reproduces msaccucmp's wording, down to its spacing and
// punctuation quirks, so result files stay byte-identical to msaccucmp's. Messages in dumpcmp's
// own words stay beside the code that raises them. A few texts adapt msaccucmp's (an op name
// added, a reason appended); their comments say so. Change no text here without a golden.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp::msg {

// ---- Spellings the messages share

// ConstManager.STRING_TO_FORMAT_MAP's name for a format, or empty for a format it does not know.
std::string_view ms_format_name(Format f);
// utils.convert_shape_to_string, msaccucmp's usual shape spelling: "(1, 3, 224, 224)", "(5)".
std::string shape(const Shape& s);
// A shape as numpy writes it in an exception: "(1,3,224,224)", "(5,)", "()".
std::string numpy_shape(const Shape& s);
// msaccucmp's "[op] " prefix, which most messages about one op carry.
std::string op_prefixed(const std::string& op, const std::string& message);

// ---- Python and numpy exception texts msaccucmp passes on in its messages

// IndexError of list[i] past the end (the converters index the shapes).
std::string index_error();
// ZeroDivisionError of // and % (a converter dividing by a zero dim).
std::string zero_division();
// TypeError of functools.reduce over an empty target shape (FRACTAL_NZ converters).
std::string empty_reduce();
// ValueError of numpy.transpose with more axes than the permutation (NDC1HWC0 -> NCDHW).
std::string axes_mismatch();
// ValueError of unpacking a shorter shape into `expected` names (NDC1HWC0 -> ND).
std::string too_few_values_to_unpack(int expected, std::size_t got);
// ValueError of unpacking a longer shape into `expected` names (NDC1HWC0 -> ND).
std::string too_many_values_to_unpack(int expected);
// TypeError when a grouped tensor (sub_format >= 2) reaches a converter without a group argument.
std::string convert_takes_no_group();
// str(CompareError(MSACCUCMP_INDEX_OUT_OF_BOUNDS_ERROR)): the NC1HWC0/NDC1HWC0 rank checks raise
// the bare error code.
std::string index_out_of_bounds_code();
// numpy's ValueError for a reshape whose sizes differ; `shape_text` is spelled by the caller.
std::string cannot_reshape(int64_t size, const std::string& shape_text);
// numpy's ValueError of max() over an empty array (MaxAbsoluteError, MaxRelativeError, KLD).
std::string empty_max_reduction();
// numpy's TypeError of subtracting bool arrays (RelativeEuclideanDistance on bools).
std::string bool_subtract();

// ---- Layout conversion (FormatManager, ShapeConversion, TensorConversion.slice_data)

// common.get_format_string, raised for a format code outside STRING_TO_FORMAT_MAP.
std::string format_code_not_supported(int code);
// FormatManager's warning when it has no convert_<SRC>_to_<DST> for the pair.
std::string conversion_not_supported(Format src, Format dst);
// FormatManager's wrapper around any exception a built-in converter raises.
std::string convert_failed(Format src, Format dst, const std::string& reason);
// utils.check_shape_valid_in_nz when a FRACTAL_NZ tensor has no target shape.
std::string nz_target_shape_missing();
// utils.check_shape_valid_in_nz when the target's rank or last two dims miss the recommended shape.
std::string nz_target_shape_invalid(const Shape& target, const Shape& recommended);
// utils.check_shape_valid_in_nz when the target's leading dims differ from the recommended shape.
std::string nz_target_leading_dims_invalid(const Shape& target, const Shape& recommended);
// ShapeConversion's warning when FRACTAL_NZ -> ND is skipped because the lengths differ.
std::string nz_to_nd_length_mismatch();
// convert's error when the crop after a conversion fails; adapted: no file name, the reason added.
std::string slice_failed(const Shape& from, const Shape& to, const std::string& reason);
// log.print_cannot_compare_warning without its "[op] " prefix: the crop or a raw compare meets
// shapes that cannot be compared.
std::string cannot_compare(const Shape& left, const Shape& right);
// The same warning about two flattened arrays of `left` and `right` elements: "data(6)".
std::string cannot_compare_sizes(int64_t left, int64_t right);
// Whether `message` is the cannot-compare warning (it then takes the "[op] " prefix).
bool is_cannot_compare(std::string_view message);

// ---- Compare scenario (DumpInfo.get_data_info, CompareData.check_arguments_valid)

// The left/right side of an offline-model dump (executed on the AI processor).
std::string scenario_side_offline(bool quantized);
// The side of a quantized original-model dump (.quant).
std::string scenario_side_quantized_original();
// The side of an unquantized original-model dump (.npy, .pb).
std::string scenario_side_original();
// The scenario check's error: "When the left <side> and the right <side>, <reason>".
std::string scenario_rejected(const std::string& left_side, const std::string& right_side,
                              const std::string& reason);
// The reason when the two kinds of dump cannot be compared at all.
std::string scenario_not_comparable();
// The reason when the scenario needs `flag` ("-f", "-q", "-cf").
std::string scenario_parameter_required(std::string_view flag);
// The reason when the scenario does not take `flags` ("-q", "-q or -cf").
std::string scenario_parameter_not_needed(std::string_view flags);

// ---- NPU vs NPU and file compare (compare_npu_vs_npu, algorithm_manager)

// The row of an op dumped on the right only.
std::string no_my_output_dump_for_op(const std::string& op);
// The row of an op dumped on the left only.
std::string no_ground_truth_dump_for_op(const std::string& op);
// check_tensor_valid when the two dumps of an op hold different numbers of `type` tensors.
std::string tensor_count_mismatch(const std::string& op, std::string_view type, std::size_t left,
                                  std::size_t right);
// check_tensor_valid when neither dump of an op holds a `type` tensor.
std::string no_tensors_skipped(const std::string& op, std::string_view type);
// check_tensor_valid when tensor `tensor_id` ("op:input:0") has different shapes on each side.
std::string tensor_shape_mismatch(const std::string& op, const Shape& left, const Shape& right,
                                  const std::string& tensor_id);
// The op's NaN row when the left dump is FFTS+ slices whose count is not slice_instance_num.
std::string ffts_slice_count_mismatch();
// The NPU-vs-NPU restore leaves the two tensors of `op` with different element counts.
std::string shape_mismatch_after_restore(const std::string& op, int64_t left, int64_t right);
// common.get_dtype_by_data_type for an output data type it cannot decode.
std::string output_dtype_not_supported(int code);
// file_compare's error when the two .npy arrays have different shapes.
std::string file_shape_mismatch(const Shape& my_shape, const std::string& my_path,
                                const Shape& golden_shape, const std::string& golden_path);

// ---- Metrics (algorithm_manager and the builtin algorithms)

// algorithm_manager's wrapper around an exception the algorithm `metric` raises.
std::string compare_failed(std::string_view metric, const std::string& reason);
// CosineSimilarity when the data of `path` is all zero.
std::string cosine_all_zero(const std::string& path);
// CosineSimilarity's note on a scalar tensor (the value is 1).
std::string scalar_tensor();
// KullbackLeiblerDivergence when the ground truth of `path` holds a zero (the value is inf).
std::string kld_contains_zero(const std::string& path);
// algorithm_manager for an algorithm other than cosine and RED on two bool tensors.
std::string boolean_not_supported(std::string_view metric);

// ---- Fusion-rule compare (compare_fusion_op, fusion_op, tensor_conversion)

// log.print_no_left_dump_file_error: the NPU op of the rule has no dump.
std::string no_left_dump(const std::string& op, const std::string& type);
// log.print_no_right_dump_file_error: no ground-truth dump for tensor `tensor_id`.
std::string no_golden_dump(const std::string& op, const std::string& tensor_id);
// The fusion rule has no op of that name (an input's producer, or the -op of detail).
std::string op_not_in_fusion_rule(const std::string& op);
// compare_fusion_op skipping an inner node of a multi-to-multi group (no space after the '.').
std::string inner_node_skipped(const std::string& op);
// compare_fusion_op's reason when no op of an L1-fusion group was dumped.
std::string fusion_op_list_empty();
// TensorConversion when the ground truth's format name is not one msaccucmp knows.
std::string ground_truth_format_not_supported(const std::string& format);
// FusionOp.get_origin_tensor when the op has no output descriptions.
std::string output_desc_empty(const std::string& op);
// FusionOp.get_origin_tensor when output desc `index` names no origin op.
std::string origin_name_empty(const std::string& op, int index);
// FusionOp.get_input_tensor for an input index past the list; adapted: the op is named instead of
// "for the operator list".
std::string input_index_out_of_range(int index, const std::string& op, std::size_t count);
// FusionOp.get_input_tensor for an input entry that is not "op_name:index"; adapted: the op named.
std::string input_not_name_and_index(const std::string& entry, const std::string& op);
// FusionOp.get_input_tensor for an input entry with an empty op name; adapted: the op named.
std::string input_op_name_empty(const std::string& entry, const std::string& op);
// FusionOp.get_input_tensor for an input entry whose index is not digits; adapted: the op named.
std::string input_index_not_number(const std::string& entry, const std::string& op);

// ---- Operator selection (-r, -s), -map, indexes

// log.print_out_of_range_error: `kind` index (input, output, start, ...) outside `range`
// ("[0, 3)", "[1, 9]"); no "[op] " prefix when `op` is empty.
std::string index_out_of_range(const std::string& op, std::string_view kind, int64_t index,
                               const std::string& range);
// The same error for an index into `count` tensors: the range "[0, count)".
std::string index_past_count(const std::string& op, std::string_view kind, int64_t index,
                             std::size_t count);
// RangeMode when -r is not three comma-separated fields.
std::string range_not_three_fields(const std::string& text);
// RangeMode when a field of -r is not a number.
std::string range_field_not_number(const std::string& text);
// SelectMode when an entry of -s is not a natural number.
std::string select_entry_invalid(const std::string& text);
// SelectMode for the -s indexes past the last op sequence.
std::string select_out_of_range(const std::vector<int64_t>& ids, int64_t max_sequence);
// msaccucmp's argument check: -map without -f or -q.
std::string mapping_needs_rule();
// msaccucmp's argument check: -map together with -op.
std::string mapping_excludes_detail();
// NO_DUMP_FILE: not one op of the model had a dump; `range` / `select` as given to -r / -s.
std::string model_does_not_match(const std::string& range, const std::string& select);

// ---- Single-op detail (-op, compare_detail)

// The detail argument checks: -ml outside 10000..1000000, a tensor index that is not a natural
// number (`what`: "detail" for compare, "tensor" for convert), a -t that is not input/output.
std::string max_line_out_of_range(int64_t max_line);
std::string index_not_natural(const std::string& what, const std::string& text);
std::string detail_type_invalid(const std::string& type);
// DumpDetailComparison when one dump directory has no dump of the op; `flag` is "-m" or "-g".
std::string op_dump_not_found(const std::string& op, std::string_view flag);
// DumpDetailComparison when the two tensors' shapes differ (shapes as Python tuples).
std::string detail_shape_mismatch(const Shape& mine, const Shape& golden);
// DetailInfo.check_and_set_format when the two NPU tensors' formats differ.
std::string detail_format_mismatch();
// DetailComparison for -op naming an inner node; this wording is dumpcmp's shorter variant of
// log.print_skip_inner_op_msg.
std::string detail_inner_node_skipped(const std::string& op);
// DetailComparison for -op naming an op of a quant/dequant pair.
std::string quant_pair_op_selected(const std::string& op);

// ---- convert and overflow (msaccucmp.py, DumpDataParser, ShapeFormatConversion, OverflowAnalyse)

// convert's -f check: a target format msaccucmp does not know.
std::string convert_format_not_supported(const std::string& format);
// path_check when no path of a comma-separated list exists.
std::string no_valid_file(const std::string& paths);
// convert when the dump directory holds no file.
std::string dump_path_empty();
// DumpDataParser's warning for a dump without `type` tensors.
std::string no_tensors_in(std::string_view type, const std::string& path);
// DumpDataParser's warning for a tensor (`label` "output:0") whose data cannot be parsed.
std::string tensor_parse_failed(const std::string& label, const std::string& path);
// convert's error for one tensor whose conversion failed, with the reason.
std::string convert_format_failed(const std::string& label, const std::string& path,
                                  const std::string& reason);
// convert's -s check for a zero dimension.
std::string shape_dim_not_positive(const std::string& text);
// convert's -s check for text that is not a comma list of numbers.
std::string shape_text_invalid(const std::string& text);
// convert's warning that a directory of dumps ignores -o, -i and -s.
std::string directory_ignores_tensor_arguments();
// overflow when -d is not a directory.
std::string overflow_dump_dir_invalid(const std::string& dir);

// ---- batch mode (batch_compare.py, docs/batch-mode.md §1-2)

// -op with a directory -f.
std::string batch_single_op_refused(const std::string& op);
// -m whose last component is not all digits (realpath).
std::string batch_path_not_timestamp(const std::string& path);
// No graph name in any .json of the -f directory (realpath).
std::string batch_no_rule_json(const std::string& dir);
// No {device}/{model_name}/{model_id}/{step} leaf below -m (realpath).
std::string batch_path_format(const std::string& path);
// No graph of the JSONs matched a model_name directory (realpath of -m).
std::string batch_no_graph_match(const std::string& path);
// The graph-id fallback's warning: leaves joined by ',' without spaces.
std::string batch_time_stamps_differ(const std::string& graph, const std::string& leaves);

}  // namespace dumpcmp::msg
