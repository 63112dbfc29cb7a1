#pragma once
// msaccucmp's messages of the compare: its scenario checks, NPU vs NPU and file compares, in its
// wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

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
// file_compare's error when the two .npy arrays have different shapes.
std::string file_shape_mismatch(const Shape& my_shape, const std::string& my_path,
                                const Shape& golden_shape, const std::string& golden_path);

}  // namespace dumpcmp::msg
