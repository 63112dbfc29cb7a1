#include "probe/probe_mapping.hpp"

#include <yaml-cpp/yaml.h>

#include "core/error.hpp"

namespace dumpcmp {

ProbeDataMapping read_probe_data_mapping(const std::string& path) {
  // load_yaml's FileChecker: a .yaml file.
  if (path.size() < 5 || path.compare(path.size() - 5, 5, ".yaml") != 0)
    throw format_error(path, "the mapping file does not end with .yaml");
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw format_error(path, "the mapping file cannot be read");
  } catch (const YAML::Exception& e) {
    throw format_error(path,
                       "not YAML: " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")");
  }
  ProbeDataMapping mapping;
  if (root.IsNull()) return mapping;  // an empty file: safe_load gives None, no mapping
  if (!root.IsMap()) throw format_error(path, "a data mapping is a dict of row names");
  for (const auto& entry : root) {
    if (!entry.first.IsScalar() || !entry.second.IsScalar())
      throw format_error(path, "a data mapping maps row names to row names (scalars only)");
    mapping[entry.first.Scalar()] = entry.second.Scalar();  // a repeated key keeps its last value
  }
  return mapping;
}

}  // namespace dumpcmp
