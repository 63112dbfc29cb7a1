#pragma once
// PyYAML's yaml.dump(dict, sort_keys=False) of a flat dict of strings, as msprobe writes its
// generated mapping files (-lm's data_mapping_<ts>.yaml).
#include <string>
#include <utility>
#include <vector>

namespace dumpcmp {

// "key: value" lines in order: plain scalars where PyYAML writes them plain, single quotes where a
// plain one would read back as another type or break the syntax, "? key" for keys of 123
// characters or more; "{}" for no entries. Values are written on one line (PyYAML folds plain
// values with spaces at 80 columns; row names have none).
std::string pyyaml_flat_dict(const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace dumpcmp
