#pragma once
// msaccucmp's messages of convert (DumpDataParser, ShapeFormatConversion), in its wording
// (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

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

}  // namespace dumpcmp::msg
