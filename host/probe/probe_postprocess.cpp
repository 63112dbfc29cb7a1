#include "probe/probe_postprocess.hpp"

#include <algorithm>
#include <optional>

#include "core/error.hpp"
#include "probe/probe_matmul.hpp"
#include "probe/yaml_file.hpp"

namespace dumpcmp {
namespace {

// A part of the config (right_matmul, ...): a dict, or absent.
YAML::Node part_of(const YAML::Node& root, const char* key, const std::string& path) {
  const YAML::Node part = root[key];
  if (part && !part.IsMap())
    throw format_error(path, std::string(key) + " is not a dict of tensor maps");
  return part;
}

// A {matrix file: [data file names]} map reversed into {data file name: matrix file}; an entry
// whose names are not a list is skipped with a warning (_build_reverse_map).
std::map<std::string, std::string> reverse_map(const YAML::Node& part, const char* key,
                                               const std::string& path,
                                               std::vector<std::string>& warnings) {
  std::map<std::string, std::string> out;
  if (!part) return out;
  const YAML::Node map = part[key];
  if (!map || map.IsNull()) return out;
  if (!map.IsMap()) throw format_error(path, std::string(key) + " is not a dict");
  for (const auto& entry : map) {
    const std::string matrix = entry.first.Scalar();
    if (!entry.second.IsSequence()) {
      warnings.push_back(path + ": " + key + ": the data names of '" + matrix +
                         "' are not a list; skipped");
      continue;
    }
    for (const YAML::Node& name : entry.second) {
      if (name.IsScalar()) out[name.Scalar()] = matrix;
    }
  }
  return out;
}

void warn_unknown_keys(const YAML::Node& part, const std::vector<std::string>& known,
                       const char* part_name, const std::string& path,
                       std::vector<std::string>& warnings) {
  if (!part) return;
  for (const auto& entry : part) {
    const std::string key = entry.first.Scalar();
    if (std::find(known.begin(), known.end(), key) == known.end())
      warnings.push_back(path + ": " + part_name + ": unknown key '" + key + "' ignored");
  }
}

// value @ matrix (right) or matrix @ value (left), or the value as it was, with a warning.
void multiply(ProbeArray& value, const std::string& matrix_path, bool left,
              const std::string& data_name, const char* side, std::vector<std::string>& warnings) {
  std::string why;
  try {
    const ProbeArray matrix = read_probe_matrix(matrix_path);
    std::optional<ProbeArray> product =
        left ? numpy_matmul(matrix, value, why) : numpy_matmul(value, matrix, why);
    if (product) {
      value = std::move(*product);
      return;
    }
  } catch (const Error& e) {
    why = e.what();
  }
  warnings.push_back("[" + data_name + "] Failed to " + (left ? "left" : "right") + "-matmul " +
                     side + " tensor from " + matrix_path + ": " + why + "; compared as it is");
}

}  // namespace

ProbePostprocess read_probe_postprocess(const std::string& path) {
  const YAML::Node root = load_probe_yaml(path, "the --config file");
  ProbePostprocess config;
  if (root.IsNull()) return config;  // an empty file: no post-processing
  if (!root.IsMap()) throw format_error(path, "the --config file is not a dict");
  std::vector<std::string>& w = config.warnings;
  const std::vector<std::string> one = {"target_tensor_map", "golden_tensor_map"};
  for (const char* name : {"right_matmul", "left_matmul"}) {
    const YAML::Node part = part_of(root, name, path);
    warn_unknown_keys(part, one, name, path, w);
    config.steps.push_back({name[0] == 'l', reverse_map(part, "target_tensor_map", path, w),
                            reverse_map(part, "golden_tensor_map", path, w)});
  }
  const YAML::Node both = part_of(root, "left_right_matmul", path);
  warn_unknown_keys(both,
                    {"left_target_tensor_map", "right_target_tensor_map", "left_golden_tensor_map",
                     "right_golden_tensor_map"},
                    "left_right_matmul", path, w);
  config.steps.push_back({true, reverse_map(both, "left_target_tensor_map", path, w),
                          reverse_map(both, "left_golden_tensor_map", path, w)});
  config.steps.push_back({false, reverse_map(both, "right_target_tensor_map", path, w),
                          reverse_map(both, "right_golden_tensor_map", path, w)});
  return config;
}

void apply_probe_postprocess(const ProbePostprocess& config, const std::string& npu_name,
                             const std::string& bench_name, ProbeArray& npu, ProbeArray& bench,
                             std::vector<std::string>& warnings) {
  for (const ProbePostprocess::Matmul& step : config.steps) {
    const auto n = step.npu.find(npu_name);
    if (n != step.npu.end()) multiply(npu, n->second, step.left, npu_name, "target", warnings);
    const auto b = step.bench.find(bench_name);
    if (b != step.bench.end())
      multiply(bench, b->second, step.left, bench_name, "golden", warnings);
  }
}

}  // namespace dumpcmp
