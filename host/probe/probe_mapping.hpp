#pragma once
// msprobe's mapping files (docs/msprobe-compare.md §4.4-§4.7): `-dm`'s YAML of full row names,
// `-cm`'s YAML of cell paths, `-am`'s list of API entries and `-lm`'s class renames.
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dumpcmp {

// -dm: {npu_row_name: bench_row_name}.
using ProbeDataMapping = std::map<std::string, std::string>;

// -cm: {npu_cell_path: bench_module_path} in file order (its fallback replaces in that order).
using ProbeCellMapping = std::vector<std::pair<std::string, std::string>>;

// The row kinds an -am entry renames indices of, in ProbeState's order.
enum ProbeApiTerm : size_t { kApiArgs, kApiParameters, kApiOutput, kApiParametersGrad };

// One -am entry: a MindSpore API compared with a PyTorch one, each listed MindSpore index (the
// text after ".input.", ".parameters.", ".output.", ".parameters_grad.") with the PyTorch index
// at the same place.
struct ProbeApiMappingEntry {
  std::string ms_api, pt_api;
  std::array<std::vector<std::string>, 4> ms_indices, pt_indices;  // by ProbeApiTerm
};

struct ProbeApiMapping {
  std::vector<ProbeApiMappingEntry> entries;  // in file order; none for the bare flag
  std::vector<std::string> warnings;          // entries left out, and why
};

// -lm: {ClassName: [(child path, bench child)]} in file order.
using ProbeLayerMapping =
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>;

// Reads a -dm file (yaml.safe_load of a flat dict; scalar keys and values, read as their text).
// Throws Error(kInput) naming the file for what msprobe cannot use: not a .yaml file, YAML it
// cannot parse, or another form than a flat dict of scalars.
ProbeDataMapping read_probe_data_mapping(const std::string& path);

// Reads a -cm file, a flat dict of scalars like -dm's (a repeated key keeps its first place and
// its last value). Throws as read_probe_data_mapping.
ProbeCellMapping read_probe_cell_mapping(const std::string& path);

// Reads an -am file: a list of dicts with ms_api, pt_api and the index lists ms_args/pt_args,
// ms_output/pt_output (ms_outputs/pt_outputs when the singular keys are absent),
// ms_parameters/pt_parameters and ms_parameters_grad/pt_parameters_grad. An entry whose paired
// lists differ in length is left out with a warning, as msprobe leaves it. Throws Error(kInput)
// naming the file for another form.
ProbeApiMapping read_probe_api_mapping(const std::string& path);

// Reads an -lm file. Throws Error(kInput) naming the file for another form than a dict of dicts
// of scalars.
ProbeLayerMapping read_probe_layer_mapping(const std::string& path);

}  // namespace dumpcmp
