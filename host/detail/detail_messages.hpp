#pragma once
// msaccucmp's messages of the single-op detail (-op), in its wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

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

}  // namespace dumpcmp::msg
