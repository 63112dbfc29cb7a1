#pragma once
// msaccucmp's spellings: its format names, its two shape notations and the messages its conversion
// code logs, so plans can report failures in the words users see from msaccucmp.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp::layout_text {

// ConstManager.STRING_TO_FORMAT_MAP's name, or empty for a format it does not know.
std::string_view ms_format_name(Format f);
// utils.convert_shape_to_string: "(1, 3, 224, 224)".
std::string shape(const Shape& s);
// A numpy shape tuple as an exception prints it: "(1,3,224,224)", "(5,)", "()".
std::string numpy_shape(const Shape& s);
// numpy's ValueError for a reshape whose sizes differ.
std::string cannot_reshape(int64_t size, const Shape& s);
// FormatManager's wrapper around any exception a converter raises.
std::string convert_failed(Format src, Format dst, const std::string& reason);
// log.print_cannot_compare_warning without the "[op] " prefix.
std::string cannot_compare(const Shape& left, const Shape& right);

// Python's IndexError text for list[i] out of range.
inline constexpr const char* kIndexError = "list index out of range";
// Python's ZeroDivisionError text for // and %.
inline constexpr const char* kZeroDivision = "integer division or modulo by zero";
// str(CompareError(MSACCUCMP_INDEX_OUT_OF_BOUNDS_ERROR)): the rank checks raise it bare.
inline constexpr const char* kIndexOutOfBoundsCode = "12";

}  // namespace dumpcmp::layout_text
