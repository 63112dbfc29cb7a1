#pragma once
// msaccucmp's spellings that its messages share (formats, shapes, the [op] prefix, Python
// reprs, its wrapper of a raised exception). Each feature's messages are in
// <folder>/*_messages.hpp, in msaccucmp's wording down to its spacing and punctuation quirks, so
// result files stay byte-identical to msaccucmp's. Change no text without a golden.
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
// repr() of a Python tuple of ints: "(1, 3)", "(5,)", "()".
std::string python_tuple(const Shape& s);
// "Failed to execute '<function>' in '<module>'. <reason>": how msaccucmp wraps an exception
// raised inside a converter or an algorithm.
std::string failed_to_execute(std::string_view function, std::string_view module,
                              const std::string& reason);

}  // namespace dumpcmp::msg
