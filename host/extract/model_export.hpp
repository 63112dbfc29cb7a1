#pragma once
// `dumpcmp extract --model`: a sub-model cut out of the original (framework) model between two
// layers, written in the model's own format into DIR/dump_result_<YYYY_MM_DD_HH_MM_SS>/, with the
// NPU dumps of the offline-model ops that carry its layers when the offline model's JSON and dump
// are given, and the log MindStudio's "Dump Network" writes (docs/formats.md §10).
#include <cstdint>
#include <string>
#include <vector>

#include "extract/source_model.hpp"
#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

// graph_json alone gives input and output shapes and the model-name check; with dump_dir also
// dump_data/ and the log's dump part.
struct ModelExportOptions {
  std::string model, weights, graph_json, dump_dir, start, end, output_dir;
};

struct ModelExportSummary {
  std::string result_dir, log_path;
  std::vector<std::string> layers;  // the sub-model's layers, in model order
  std::vector<std::string> files;   // the model files written
  int64_t npu_ops = 0, copied = 0, missing = 0, exported = 0;
  std::vector<std::string> warnings;  // for the console: the model names differ, ...
};

ModelExportSummary export_submodel(const ModelExportOptions& options);

// The warning when the offline model (its first graph's name) was made from another model; "" when
// the names agree or either is unknown.
std::string model_name_warning(const SourceModel& model, const std::string& graph_json);

// Each layer with its inputs and output shapes, one a line; `chosen` layers (indexes) marked '*'.
// Shapes the model does not record come from the offline model's origin shapes when `rule` is
// given.
std::string list_layers(const SourceModel& model, const FusionRule* rule,
                        const std::vector<int>& chosen);

}  // namespace dumpcmp
