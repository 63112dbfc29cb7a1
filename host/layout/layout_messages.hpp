#pragma once
// msaccucmp's messages about layouts: the Python and numpy exceptions its converters raise, and
// its conversion errors, in its wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

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

}  // namespace dumpcmp::msg
