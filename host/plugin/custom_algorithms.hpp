#pragma once
// msaccucmp's custom algorithm plug-ins (-c DIR): which DIR/algorithm/alg_<Name>.py files there
// are, and -a's per-algorithm parameters, with msaccucmp's warnings and errors.
#include <string>
#include <vector>

#include "core/format.hpp"
#include "plugin/python_worker.hpp"

namespace dumpcmp {

// The names of DIR/algorithm/alg_<Name>.py (or .pyc) files, sorted. Files that do not match the
// pattern, a missing algorithm/ folder and a folder without plug-ins are warnings in msaccucmp's
// words. Throws Error(kUsage) when DIR is not a directory.
std::vector<std::string> find_custom_algorithms(const std::string& custom_dir,
                                                std::vector<std::string>& warnings);

// The custom converter DIR/format_convert/convert_{FROM}_to_{TO}.py (or .pyc) for a format pair
// as its module name, or "" when DIR is empty or has none.
std::string find_custom_converter(const std::string& custom_dir, Format from, Format to);

// -a "Name:key=value,key2=value2;Name2:..." (an index 0-9 names the built-in algorithm). Throws
// Error(kUsage) with msaccucmp's message for an entry that is not of that form.
AlgorithmParams parse_algorithm_params(const std::string& text);

}  // namespace dumpcmp
