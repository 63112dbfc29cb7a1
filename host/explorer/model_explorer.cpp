#include "explorer/model_explorer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_set>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/shape.hpp"

namespace dumpcmp {
namespace {

// A number as JSON: the shortest text that reads back to the same double.
std::string json_number(double v) {
  char text[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  return text;
}

std::string key_value(const std::string& key, const std::string& value) {
  return "{\"key\":" + json_string(key) + ",\"value\":" + json_string(value) + "}";
}

// One node as Model Explorer draws it: the neutral form of an atc op or an original model's layer.
struct ExplorerNode {
  struct Edge {
    std::string source, output;  // the producing node and its output index
    size_t input = 0;            // the input position on this node
  };
  using Attrs = std::vector<std::pair<std::string, std::string>>;
  std::string id, label;
  Attrs attrs;
  std::vector<Edge> edges;
  std::vector<Attrs> outputs;  // metadata of each output
};

std::vector<ExplorerNode> rule_nodes(const FusionRule& rule) {
  std::unordered_set<std::string> names;
  for (const FusionOp& op : rule.ops()) names.insert(op.name);
  std::vector<ExplorerNode> nodes;
  for (const FusionOp& op : rule.ops()) {
    ExplorerNode node{op.name, op.type, {{"name", op.name}, {"type", op.type}}, {}, {}};
    node.attrs.emplace_back("id", std::to_string(op.op_sequence));
    if (!op.original_op_names.empty()) {
      std::string joined;
      for (const std::string& n : op.original_op_names) joined += (joined.empty() ? "" : ",") + n;
      node.attrs.emplace_back("original_op_names", joined);
    }
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      const std::string& input = op.inputs[i];
      const size_t colon = input.rfind(':');
      const std::string source = input.substr(0, colon);
      if (names.count(source) == 0) continue;  // not an op of this graph
      node.edges.push_back({source, colon == std::string::npos ? "0" : input.substr(colon + 1), i});
    }
    for (const OutputDesc& d : op.output_desc) {
      node.outputs.push_back(
          {{"shape", shape_to_string(d.origin_shape)},
           {"format", d.origin_format},
           {"dtype", d.data_type},
           {"origin", d.origin_name + ":" + std::to_string(d.origin_output_index)}});
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

std::vector<ExplorerNode> layer_nodes(const LayerGraph& graph) {
  const std::vector<std::vector<int>> producers = graph.producers();
  std::vector<ExplorerNode> nodes;
  for (size_t i = 0; i < graph.layers.size(); ++i) {
    const Layer& layer = graph.layers[i];
    ExplorerNode node{layer.name, layer.type, {{"name", layer.name}, {"type", layer.type}}, {}, {}};
    for (size_t j = 0; j < layer.inputs.size(); ++j) {
      const int p = producers[i][j];
      if (p < 0) continue;  // a model input or a constant
      const std::vector<std::string>& made = graph.layers[static_cast<size_t>(p)].outputs;
      const auto at = std::find(made.begin(), made.end(), layer.inputs[j]);
      node.edges.push_back(
          {graph.layers[static_cast<size_t>(p)].name, std::to_string(at - made.begin()), j});
    }
    for (const std::string& t : layer.outputs) {
      const auto type = graph.tensors.find(t);
      node.outputs.push_back(
          {{"tensor", t},
           {"shape", tensor_type_text(type == graph.tensors.end() ? nullptr : &type->second)}});
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

std::string attrs_json(const ExplorerNode::Attrs& attrs) {
  std::string out = "[";
  for (size_t k = 0; k < attrs.size(); ++k) {
    out += (k ? "," : "") + key_value(attrs[k].first, attrs[k].second);
  }
  return out + "]";
}

std::string graph_json(const std::string& label, const std::string& graph_id,
                       const std::vector<ExplorerNode>& nodes) {
  std::string out = "{\"label\":" + json_string(label) +
                    ",\"graphs\":[{\"id\":" + json_string(graph_id) + ",\"nodes\":[";
  for (size_t n = 0; n < nodes.size(); ++n) {
    const ExplorerNode& node = nodes[n];
    out += (n ? ",\n" : "\n");
    out += "{\"id\":" + json_string(node.id) + ",\"label\":" + json_string(node.label) +
           ",\"namespace\":\"\",\"attrs\":" + attrs_json(node.attrs) + ",\"incomingEdges\":[";
    for (size_t e = 0; e < node.edges.size(); ++e) {
      const ExplorerNode::Edge& edge = node.edges[e];
      out += std::string(e ? "," : "") + "{\"sourceNodeId\":" + json_string(edge.source) +
             ",\"sourceNodeOutputId\":" + json_string(edge.output) +
             ",\"targetNodeInputId\":" + json_string(std::to_string(edge.input)) + "}";
    }
    out += "],\"outputsMetadata\":[";
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      out += std::string(k ? "," : "") + "{\"id\":" + json_string(std::to_string(k)) +
             ",\"attrs\":" + attrs_json(node.outputs[k]) + "}";
    }
    out += "]}";
  }
  return out + "\n]}]}\n";
}

// The op a row belongs to: its TensorIndex's op ("conv:output:0"), else its NPUDump cell.
std::string row_op(const AnalysedRow& row) {
  const size_t colon = row.tensor_index.find(':');
  if (colon != std::string::npos) return row.tensor_index.substr(0, colon);
  return row.npu_op;
}

struct OpValues {
  bool outputs = false;  // the values come from output rows (inputs only count when there are none)
  std::vector<const AnalysedRow*> rows;
};

struct Band {
  double upper;
  const char* color;
};

std::string node_data_json(const std::string& graph_id, const std::map<std::string, double>& values,
                           const std::vector<Band>& bands,
                           const std::map<std::string, std::string>& colors = {}) {
  std::string out = "{" + json_string(graph_id) + ":{\"results\":{";
  bool first = true;
  for (const auto& [op, value] : values) {
    out +=
        std::string(first ? "\n" : ",\n") + json_string(op) + ":{\"value\":" + json_number(value);
    if (const auto c = colors.find(op); c != colors.end()) {
      out += ",\"bgColor\":" + json_string(c->second);
    }
    out += "}";
    first = false;
  }
  out += "\n},\"thresholds\":[";
  for (size_t k = 0; k < bands.size(); ++k) {
    out += std::string(k ? "," : "") + "{\"value\":" + json_number(bands[k].upper) +
           ",\"bgColor\":" + json_string(bands[k].color) + "}";
  }
  return out + "]}}\n";
}

constexpr const char* kRed = "#ef5350";
constexpr const char* kAmber = "#ffca28";
constexpr const char* kGreen = "#66bb6a";
constexpr const char* kDarkRed = "#b71c1c";

}  // namespace

std::vector<std::string> write_model_explorer(const std::string& dir, const FusionRule& rule,
                                              const ResultAnalysis& analysis,
                                              const LayerGraph* original) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) {
    throw Error(ExitCode::kInput, dir + ": cannot create the Model Explorer directory");
  }
  const std::string graph_id = "model";
  // The nodes an NPU op's rows colour: the op itself, or in the original model the layers it
  // was made from (its original op names).
  std::map<std::string, std::vector<std::string>> nodes_of;
  if (original != nullptr) {
    for (const FusionOp& op : rule.ops()) {
      for (const std::string& name : op.original_op_names) {
        if (original->find(name) >= 0) nodes_of[op.name].push_back(name);
      }
    }
  }
  auto nodes_for = [&](const std::string& op) -> std::vector<std::string> {
    if (original == nullptr) return {op};
    const auto it = nodes_of.find(op);
    return it == nodes_of.end() ? std::vector<std::string>{} : it->second;
  };
  std::map<std::string, OpValues> ops;  // by node id
  for (const AnalysedRow& row : analysis.rows()) {
    if (row.verdict == Verdict::kNotCompared) continue;
    for (const std::string& node : nodes_for(row_op(row))) {
      OpValues& v = ops[node];
      if (!row.is_input && !v.outputs) {
        v.outputs = true;
        v.rows.clear();
      }
      if (row.is_input == !v.outputs) v.rows.push_back(&row);
    }
  }
  auto metric_at = [&analysis](Metric m) -> int {
    const std::vector<Metric>& metrics = analysis.metrics();
    for (size_t k = 0; k < metrics.size(); ++k) {
      if (metrics[k] == m) return static_cast<int>(k);
    }
    return -1;
  };
  // The op's lowest (or highest) value of a metric over its rows (NaN cells left out).
  auto per_op = [&ops](int column, bool lowest) {
    std::map<std::string, double> values;
    for (const auto& [op, v] : ops) {
      double worst = NAN;
      for (const AnalysedRow* row : v.rows) {
        double x = row->cells[static_cast<size_t>(column)].number();
        if (std::isnan(x)) continue;
        if (std::isinf(x)) x = std::copysign(1e300, x);  // JSON has no infinity: past every band
        if (std::isnan(worst) || (lowest ? x < worst : x > worst)) worst = x;
      }
      if (!std::isnan(worst)) values[op] = worst;
    }
    return values;
  };

  std::vector<std::pair<std::string, std::string>> files;
  const std::string label =
      std::filesystem::path(original ? original->source : rule.source()).filename().string();
  files.emplace_back(
      dir + "/graph.json",
      graph_json(label, graph_id, original ? layer_nodes(*original) : rule_nodes(rule)));
  std::map<std::string, double> verdicts;
  for (const auto& [op, v] : ops) {
    bool pass = true;
    for (const AnalysedRow* row : v.rows) pass &= row->verdict == Verdict::kPass;
    verdicts[op] = pass ? 1.0 : 0.0;
  }
  std::map<std::string, std::string> marked;
  const DivergentOp divergent = analysis.first_divergent();
  if (divergent.found) {
    for (const std::string& node : nodes_for(divergent.why.substr(0, divergent.why.find(':')))) {
      if (verdicts.count(node)) marked[node] = kDarkRed;
    }
  }
  files.emplace_back(dir + "/verdict.json",
                     node_data_json(graph_id, verdicts, {{0.0, kRed}, {1.0, kGreen}}, marked));
  if (const int c = metric_at(Metric::kCosineSimilarity); c >= 0) {
    files.emplace_back(
        dir + "/cosine.json",
        node_data_json(graph_id, per_op(c, true), {{0.99, kRed}, {0.999, kAmber}, {1.5, kGreen}}));
  }
  if (const int c = metric_at(Metric::kMaxRelativeError); c >= 0) {
    files.emplace_back(dir + "/max_relative_error.json",
                       node_data_json(graph_id, per_op(c, false),
                                      {{0.001, kGreen}, {0.01, kAmber}, {1e300, kRed}}));
  }
  std::vector<std::string> written;
  for (const auto& [path, text] : files) {
    write_file_atomically(path, text);
    written.push_back(path);
  }
  return written;
}

}  // namespace dumpcmp
