#pragma once
// msprobe's load_yaml: a .yaml file that yaml.safe_load reads, for the mapping and --config files.
#include <yaml-cpp/yaml.h>

#include <string>

namespace dumpcmp {

// The file's YAML; throws Error(kInput) naming it, as `what` ("the mapping file"), when it does
// not end with .yaml, cannot be read or is not YAML.
YAML::Node load_probe_yaml(const std::string& path, const std::string& what);

}  // namespace dumpcmp
