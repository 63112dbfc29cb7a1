// core/msaccucmp_messages: every text byte for byte, spaces and punctuation quirks included, since
// result files and errors must read exactly as msaccucmp's.
#include <gtest/gtest.h>

#include "compare/compare_messages.hpp"
#include "convert/convert_messages.hpp"
#include "detail/detail_messages.hpp"
#include "fusion/fusion_messages.hpp"
#include "layout/layout_messages.hpp"
#include "metrics/metric_messages.hpp"
#include "overflow/overflow_messages.hpp"
#include "tensor/tensor_messages.hpp"

namespace dumpcmp {
namespace {

TEST(Messages, Spellings) {
  EXPECT_EQ(msg::ms_format_name(Format::kFractalNZ), "FRACTAL_NZ");
  EXPECT_EQ(msg::ms_format_name(Format::kFractalDeconvSpStride8Trans), "DECONV_SP_STRIDE8_TRANS");
  EXPECT_EQ(msg::ms_format_name(Format::kHashtableLookupHits), "LOOKUP_HITS");
  EXPECT_EQ(msg::ms_format_name(Format::kNC), "");
  EXPECT_EQ(msg::shape({1, 3, 224, 224}), "(1, 3, 224, 224)");
  EXPECT_EQ(msg::shape({5}), "(5)");
  EXPECT_EQ(msg::numpy_shape({2, 2, 4}), "(2,2,4)");
  EXPECT_EQ(msg::numpy_shape({5}), "(5,)");
  EXPECT_EQ(msg::numpy_shape({}), "()");
  EXPECT_EQ(msg::op_prefixed("conv1", "x."), "[conv1] x.");
}

TEST(Messages, PythonExceptionTexts) {
  EXPECT_EQ(msg::index_error(), "list index out of range");
  EXPECT_EQ(msg::zero_division(), "integer division or modulo by zero");
  EXPECT_EQ(msg::empty_reduce(), "reduce() of empty iterable with no initial value");
  EXPECT_EQ(msg::axes_mismatch(), "axes don't match array");
  EXPECT_EQ(msg::too_few_values_to_unpack(6, 5), "not enough values to unpack (expected 6, got 5)");
  EXPECT_EQ(msg::too_many_values_to_unpack(6), "too many values to unpack (expected 6)");
  EXPECT_EQ(msg::convert_takes_no_group(),
            "convert() takes 3 positional arguments but 4 were given");
  EXPECT_EQ(msg::index_out_of_bounds_code(), "12");
  EXPECT_EQ(msg::cannot_reshape(32, msg::numpy_shape({2, 2, 2, 2, 4})),
            "cannot reshape array of size 32 into shape (2,2,2,2,4)");
  EXPECT_EQ(msg::empty_max_reduction(),
            "zero-size array to reduction operation maximum which has no identity");
  EXPECT_EQ(msg::bool_subtract(),
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
            "`^` operator, or the logical_xor function instead.");
}

TEST(Messages, LayoutConversion) {
  EXPECT_EQ(msg::format_code_not_supported(35), "The format(35) does not support.");
  EXPECT_EQ(msg::conversion_not_supported(Format::kFractalZ3D, Format::kNCHW),
            "Not supported from FRACTAL_Z_3D to NCHW.");
  EXPECT_EQ(msg::convert_failed(Format::kNC1HWC0, Format::kNCHW, "12"),
            "Failed to execute 'convert' in 'convert_NC1HWC0_to_NCHW'. 12");
  EXPECT_EQ(msg::nz_target_shape_missing(),
            "The format before transfer is FRACTAL_NZ. Please enter a valid shape.");
  EXPECT_EQ(msg::nz_target_shape_invalid({5, 8}, {4, 8}),
            "The target shape (5, 8) is invalid. The recommended shape is (4, 8).");
  EXPECT_EQ(msg::nz_target_leading_dims_invalid({2, 5, 8}, {3, 5, 8}),
            "The target shape (2, 5, 8) is invalid, the recommended shape is (3, 5, 8).");
  EXPECT_EQ(msg::nz_to_nd_length_mismatch(),
            "Cannot convert FRACTAL_NZ to ND, the reason is the length of array is not equal to "
            "the length of dest shape.");
  EXPECT_EQ(msg::slice_failed({1, 16}, {2, 3}, "why"),
            "Failed to slice data from (1, 16) to (2, 3). why");
}

TEST(Messages, CannotCompare) {
  const std::string tail =
      ". Please check the batch of the dump data or the shape may be changed due to optimization.";
  const std::string shapes = msg::cannot_compare({1, 2}, {3});
  EXPECT_EQ(shapes,
            "Due to the different shapes on the left and right,the left dump data(1, 2) can not be "
            "compared to the right dump data(3)" +
                tail);
  EXPECT_EQ(msg::cannot_compare_sizes(6, 8),
            "Due to the different shapes on the left and right,the left dump data(6) can not be "
            "compared to the right dump data(8)" +
                tail);
  EXPECT_TRUE(msg::is_cannot_compare(shapes));
  EXPECT_FALSE(msg::is_cannot_compare(msg::op_prefixed("op", shapes)));
  EXPECT_FALSE(msg::is_cannot_compare("Due to"));
}

TEST(Messages, CompareScenario) {
  EXPECT_EQ(msg::scenario_side_offline(true),
            "side is dump data of the quantized model executed on the AI processor");
  EXPECT_EQ(msg::scenario_side_offline(false),
            "side is dump data of the unquantized model executed on the AI processor");
  EXPECT_EQ(msg::scenario_side_quantized_original(),
            "side is dump data of the quantized original model");
  EXPECT_EQ(msg::scenario_side_original(), "side is dump data of the unquantized original model");
  EXPECT_EQ(msg::scenario_rejected("L", "R", msg::scenario_not_comparable()),
            "When the left L and the right R, this scenario cannot be compared.");
  EXPECT_EQ(msg::scenario_parameter_required("-cf"), "the -cf parameter is required.");
  EXPECT_EQ(msg::scenario_parameter_not_needed("-q or -cf"),
            "there is no need to enter the -q or -cf parameter.");
}

TEST(Messages, NpuVsNpuAndFileCompare) {
  EXPECT_EQ(msg::no_my_output_dump_for_op("a"),
            "[a] There is no the my output dump file for the op \"a\".");
  EXPECT_EQ(msg::no_ground_truth_dump_for_op("a"),
            "[a] There is no the ground truth dump file for the op \"a\".");
  EXPECT_EQ(msg::tensor_count_mismatch("a", "input", 2, 3),
            "[a] The number of input does not match (2 vs 3).");
  EXPECT_EQ(msg::no_tensors_skipped("a", "input"), "[a] There is no input. Skip the a:input.");
  EXPECT_EQ(msg::tensor_shape_mismatch("a", {1, 2}, {2}, "a:output:0"),
            "[a] The shape does not match ((1, 2) vs (2)) for a:output:0.");
  EXPECT_EQ(msg::shape_mismatch_after_restore("a", 6, 8),
            "[a_TENSOR] Shape mismatch after restore: (6,) vs (8,)");
  EXPECT_EQ(msg::output_dtype_not_supported(28), "The output data type (28) does not support.");
  EXPECT_EQ(msg::file_shape_mismatch({2}, "x.npy", {3, 1}, "y.npy"),
            "My output shape (2) in 'x.npy' does not match the ground truth shape (3, 1) in "
            "'y.npy'.");
}

TEST(Messages, Metrics) {
  EXPECT_EQ(msg::compare_failed("MaxAbsoluteError", "boom"),
            "Failed to execute 'compare' in 'MaxAbsoluteError'. boom");
  EXPECT_EQ(msg::cosine_all_zero("/d/x"),
            "Cannot compare by Cosine Similarity. All the data is zero in /d/x.");
  EXPECT_EQ(msg::scalar_tensor(), "This tensor is scalar.");
  EXPECT_EQ(msg::kld_contains_zero("/d/y"),
            "Cannot compare by KL Divergence. The data contains 0 in '/d/y'.");
  EXPECT_EQ(msg::boolean_not_supported("MeanAbsoluteError"),
            "Algorithm MeanAbsoluteError does not support Boolean types.");
}

TEST(Messages, FusionRule) {
  EXPECT_EQ(msg::no_left_dump("a", "Conv2D"),
            "[a] There is no dump file for my output operator \"a\". The type is Conv2D.");
  EXPECT_EQ(msg::no_golden_dump("a", "a:input:0"),
            "[a] There is no the ground truth dump file for a:input:0.");
  EXPECT_EQ(msg::op_not_in_fusion_rule("p"), "There is no \"p\" in the fusion rule file.");
  EXPECT_EQ(msg::inner_node_skipped("a"),
            "[a] The op is inner node for multi to multi relation.Skip the op.");
  EXPECT_EQ(msg::fusion_op_list_empty(), "The fusion operator list is empty");
  EXPECT_EQ(msg::ground_truth_format_not_supported("XY"), "The format \" XY \" is not supported.");
  EXPECT_EQ(msg::output_desc_empty("a"),
            "The output description of the fusion operator \"a\" is empty.");
  EXPECT_EQ(msg::origin_name_empty("a", 1), "The origin name of the a:1 is empty.");
  EXPECT_EQ(msg::input_index_out_of_range(3, "a", 2),
            "The input index (3) of \"a\" is out of range (2).");
  EXPECT_EQ(msg::input_not_name_and_index("x:y:0", "a"),
            "The input information (x:y:0) of \"a\" is invalid. It only supports op_name:index.");
  EXPECT_EQ(msg::input_op_name_empty(":0", "a"),
            "The input information (:0) of \"a\" is invalid. The input operator name is empty.");
  EXPECT_EQ(
      msg::input_index_not_number("p:x", "a"),
      "The input information (p:x) of \"a\" is invalid. The input index only supports numbers.");
}

TEST(Messages, SelectionAndIndexes) {
  EXPECT_EQ(msg::index_out_of_range("", "step", 9, "[1, 9)"),
            "The step index (9) is out of range [1, 9). Please check the index.");
  EXPECT_EQ(msg::index_past_count("a", "output", 2, 2),
            "[a] The output index (2) is out of range [0, 2). Please check the index.");
  EXPECT_EQ(msg::range_not_three_fields("1,2"),
            "The range (1,2) is invalid, just supports \"start,end,step\".");
  EXPECT_EQ(msg::range_field_not_number("1,x,1"),
            "The range (1,x,1) is invalid, just supports \"start,end,step\", the value is number.");
  EXPECT_EQ(msg::select_entry_invalid("1,x"),
            "The index (1,x) is invalid, just supports \"index_1, index_2, ...\", the value is "
            "zero or a positive number.");
  EXPECT_EQ(msg::select_out_of_range({7, 12}, 5), "Index [7, 12] out of range [1,5].");
  EXPECT_EQ(msg::mapping_needs_rule(),
            "When --mapping or -map exists,there is need to enter the -f or -q parameter.");
}

TEST(Messages, SingleOpDetail) {
  EXPECT_EQ(msg::op_dump_not_found("a", "-g"),
            "Failed to find a dump data from -g dump data path.");
  EXPECT_EQ(
      msg::detail_shape_mismatch({4}, {2, 2}),
      "My Output data shape (4,) not equal to Ground Truth data shape (2, 2).Can not compare.");
  EXPECT_EQ(msg::detail_format_mismatch(),
            "NPUDump tensor format not match Ground truth tensor format!Cannot be directly "
            "compared.");
  EXPECT_EQ(msg::detail_inner_node_skipped("a"),
            "[a] The op is inner node for multi to multi relation. Skip the op.");
  EXPECT_EQ(msg::quant_pair_op_selected("a"),
            "[a] The -op param should not specify an operator in quant/dequant pair.");
}

TEST(Messages, ConvertAndOverflow) {
  EXPECT_EQ(msg::no_valid_file("a,b"), "There is no valid file in \"a,b\". Please check the path.");
  EXPECT_EQ(msg::dump_path_empty(), "The dump path is empty.");
  EXPECT_EQ(msg::no_tensors_in("input", "/d/f"), "There is no input in \"/d/f\".");
  EXPECT_EQ(msg::tensor_parse_failed("output:0", "/d/f"),
            "Failed to parse the data of output:0 in \"/d/f\".");
  EXPECT_EQ(msg::convert_format_failed("output:0", "/d/f", "why"),
            "Failed to convert format for output:0 of \"/d/f\". why");
  EXPECT_EQ(msg::shape_dim_not_positive("1,0"),
            "The shape(1,0) is invalid. Each dimension must be greater than 0.");
  EXPECT_EQ(msg::shape_text_invalid("x"),
            "The shape(x) is invalid. The supported formats are \"1,3,224,224\".");
  EXPECT_EQ(msg::directory_ignores_tensor_arguments(),
            "The dump path is a directory. If the -o, -i and -s arguments exist, these arguments "
            "will be ignored.");
  EXPECT_EQ(msg::overflow_dump_dir_invalid("/d"),
            "[Overflow] the -d parameter: \"/d\" is invalid!");
}

TEST(MsaccucmpMessages, CommandLineChecks) {
  EXPECT_EQ(msg::mapping_excludes_detail(),
            "When --mapping or -map exists,the -op parameter is invalid.");
  EXPECT_EQ(msg::model_does_not_match("1,5,1", ""),
            "The model in [1,5,1] range does not match the dump data.");
  EXPECT_EQ(msg::model_does_not_match("", "3,4"),
            "The model in index list [3,4] does not match the dump data.");
  EXPECT_EQ(msg::model_does_not_match("", ""),
            "The model does not match the dump data, please check the model and the dump data "
            "again.");
  EXPECT_EQ(msg::max_line_out_of_range(5),
            "The --max_line argument index (5) is out of range 10000 - 1000000. Please check the "
            "index.");
  EXPECT_EQ(msg::index_not_natural("detail", "-1"),
            "The detail index is invalid: -1. It only supports natural number.");
  EXPECT_EQ(msg::detail_type_invalid("x"),
            "The detail type is invalid: x. It only supports ['input', 'output'].");
  EXPECT_EQ(msg::convert_format_not_supported("NC"),
            "The format \"NC\" is not supported. Please check the format.");
}

}  // namespace
}  // namespace dumpcmp
