#include "probe/probe_mapping.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/text.hpp"
#include "probe/yaml_file.hpp"

namespace dumpcmp {
namespace {

YAML::Node load_yaml(const std::string& path) { return load_probe_yaml(path, "the mapping file"); }

// A flat dict of scalars, in file order; a repeated key keeps its first place and its last value.
std::vector<std::pair<std::string, std::string>> scalar_dict(const std::string& path,
                                                             const char* not_dict,
                                                             const char* not_scalar) {
  const YAML::Node root = load_yaml(path);
  std::vector<std::pair<std::string, std::string>> out;
  if (root.IsNull()) return out;  // an empty file: safe_load gives None, no mapping
  if (!root.IsMap()) throw format_error(path, not_dict);
  for (const auto& entry : root) {
    if (!entry.first.IsScalar() || !entry.second.IsScalar()) throw format_error(path, not_scalar);
    const std::string key = entry.first.Scalar();
    const auto same =
        std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == key; });
    if (same != out.end()) {
      same->second = entry.second.Scalar();
    } else {
      out.emplace_back(key, entry.second.Scalar());
    }
  }
  return out;
}

// An entry's index list: a YAML list of scalars (str() of each, as msprobe compares them), or
// none.
std::vector<std::string> index_list(const YAML::Node& entry, const char* key,
                                    const std::string& path) {
  const YAML::Node list = entry[key];
  std::vector<std::string> out;
  if (!list || list.IsNull()) return out;
  if (!list.IsSequence()) throw format_error(path, std::string(key) + " is not a list");
  for (const YAML::Node& item : list) {
    if (!item.IsScalar()) throw format_error(path, std::string(key) + " holds a non-scalar");
    out.push_back(item.Scalar());
  }
  return out;
}

std::string scalar_or_empty(const YAML::Node& entry, const char* key, const std::string& path) {
  const YAML::Node value = entry[key];
  if (!value || value.IsNull()) return "";
  if (!value.IsScalar()) throw format_error(path, std::string(key) + " is not a name");
  return value.Scalar();
}

}  // namespace

ProbeDataMapping read_probe_data_mapping(const std::string& path) {
  ProbeDataMapping mapping;
  for (auto& [npu, bench] :
       scalar_dict(path, "a data mapping is a dict of row names",
                   "a data mapping maps row names to row names (scalars only)"))
    mapping[npu] = bench;
  return mapping;
}

ProbeCellMapping read_probe_cell_mapping(const std::string& path) {
  return scalar_dict(path, "a cell mapping is a dict of cell paths",
                     "a cell mapping maps cell paths to module paths (scalars only)");
}

ProbeApiMapping read_probe_api_mapping(const std::string& path) {
  const YAML::Node root = load_yaml(path);
  ProbeApiMapping mapping;
  if (root.IsNull()) return mapping;
  if (!root.IsSequence()) throw format_error(path, "an API mapping is a list of dicts");
  static constexpr std::array<const char*, 4> kPlural = {"args", "parameters", "outputs",
                                                         "parameters_grad"};
  for (const YAML::Node& node : root) {
    if (!node.IsMap()) throw format_error(path, "an API mapping is a list of dicts");
    ProbeApiMappingEntry entry;
    entry.ms_api = scalar_or_empty(node, "ms_api", path);
    entry.pt_api = scalar_or_empty(node, "pt_api", path);
    bool lengths_equal = true;
    for (size_t term = 0; term < kPlural.size(); ++term) {
      const std::string ms = std::string("ms_") + kPlural[term];
      const std::string pt = std::string("pt_") + kPlural[term];
      entry.ms_indices[term] = index_list(node, ms.c_str(), path);
      entry.pt_indices[term] = index_list(node, pt.c_str(), path);
      lengths_equal =
          lengths_equal && entry.ms_indices[term].size() == entry.pt_indices[term].size();
    }
    // msprobe 26.2.0 renames output indices by ms_output/pt_output (and fails without them);
    // its documented ms_outputs/pt_outputs serve when those are absent.
    if (node["ms_output"] || node["pt_output"]) {
      entry.ms_indices[kApiOutput] = index_list(node, "ms_output", path);
      entry.pt_indices[kApiOutput] = index_list(node, "pt_output", path);
      lengths_equal = lengths_equal &&
                      entry.ms_indices[kApiOutput].size() == entry.pt_indices[kApiOutput].size();
    }
    if (!lengths_equal) {
      mapping.warnings.push_back(path + ": the mapping of " + entry.ms_api + " to " + entry.pt_api +
                                 " is left out: its MindSpore and PyTorch index lists differ in "
                                 "length");
      continue;
    }
    mapping.entries.push_back(std::move(entry));
  }
  return mapping;
}

ProbeLayerMapping read_probe_layer_mapping(const std::string& path) {
  const YAML::Node root = load_yaml(path);
  ProbeLayerMapping mapping;
  if (root.IsNull()) return mapping;
  if (!root.IsMap()) throw format_error(path, "a layer mapping is a dict of class names");
  for (const auto& type : root) {
    if (!type.first.IsScalar() || !(type.second.IsMap() || type.second.IsNull()))
      throw format_error(path, "a layer mapping maps class names to dicts of child paths");
    std::vector<std::pair<std::string, std::string>> entries;
    if (type.second.IsMap()) {
      for (const auto& entry : type.second) {
        if (!entry.first.IsScalar() || !entry.second.IsScalar())
          throw format_error(path, "a layer mapping maps child paths to names (scalars only)");
        entries.emplace_back(entry.first.Scalar(), entry.second.Scalar());
      }
    }
    mapping.emplace_back(type.first.Scalar(), std::move(entries));
  }
  return mapping;
}

}  // namespace dumpcmp
