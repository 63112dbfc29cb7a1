#pragma once
// msaccucmp's messages about fusion rules: the rule file, the fusion-rule compare, operator
// selection (-r, -s), -map and indexes, in its wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

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

}  // namespace dumpcmp::msg
