#pragma once
// msprobe's mapping files (docs/msprobe-compare.md §4.4): `-dm`'s YAML of full row names,
// {npu_row_name: bench_row_name}.
#include <map>
#include <string>

namespace dumpcmp {

using ProbeDataMapping = std::map<std::string, std::string>;

// Reads a -dm file (yaml.safe_load of a flat dict; scalar keys and values, read as their text).
// Throws Error(kInput) naming the file for what msprobe cannot use: not a .yaml file, YAML it
// cannot parse, or another form than a flat dict of scalars.
ProbeDataMapping read_probe_data_mapping(const std::string& path);

}  // namespace dumpcmp
