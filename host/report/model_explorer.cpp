#include "report/model_explorer.hpp"

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

std::string dims_text(const Shape& shape) {
  std::string out = "[";
  for (size_t k = 0; k < shape.size(); ++k) out += (k ? "," : "") + std::to_string(shape[k]);
  return out + "]";
}

std::string graph_json(const FusionRule& rule, const std::string& graph_id) {
  std::unordered_set<std::string> names;
  for (const FusionOp& op : rule.ops()) names.insert(op.name);
  std::string out =
      "{\"label\":" + json_string(std::filesystem::path(rule.source()).filename().string()) +
      ",\"graphs\":[{\"id\":" + json_string(graph_id) + ",\"nodes\":[";
  bool first_node = true;
  for (const FusionOp& op : rule.ops()) {
    out += first_node ? "\n" : ",\n";
    first_node = false;
    out += "{\"id\":" + json_string(op.name) + ",\"label\":" + json_string(op.type) +
           ",\"namespace\":\"\",\"attrs\":[" + key_value("name", op.name) + "," +
           key_value("type", op.type) + "," + key_value("id", std::to_string(op.op_sequence));
    if (!op.original_op_names.empty()) {
      std::string joined;
      for (const std::string& n : op.original_op_names) joined += (joined.empty() ? "" : ",") + n;
      out += "," + key_value("original_op_names", joined);
    }
    out += "],\"incomingEdges\":[";
    bool first_edge = true;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      const std::string& input = op.inputs[i];
      const size_t colon = input.rfind(':');
      const std::string source = input.substr(0, colon);
      if (names.count(source) == 0) continue;  // not an op of this graph
      const std::string output = colon == std::string::npos ? "0" : input.substr(colon + 1);
      out += std::string(first_edge ? "" : ",") + "{\"sourceNodeId\":" + json_string(source) +
             ",\"sourceNodeOutputId\":" + json_string(output) +
             ",\"targetNodeInputId\":" + json_string(std::to_string(i)) + "}";
      first_edge = false;
    }
    out += "],\"outputsMetadata\":[";
    for (size_t k = 0; k < op.output_desc.size(); ++k) {
      const OutputDesc& d = op.output_desc[k];
      out += std::string(k ? "," : "") + "{\"id\":" + json_string(std::to_string(k)) +
             ",\"attrs\":[" + key_value("shape", dims_text(d.origin_shape)) + "," +
             key_value("format", d.origin_format) + "," + key_value("dtype", d.data_type) + "," +
             key_value("origin", d.origin_name + ":" + std::to_string(d.origin_output_index)) +
             "]}";
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
                                              const ResultAnalysis& analysis) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) {
    throw Error(ExitCode::kInput, dir + ": cannot create the Model Explorer directory");
  }
  const std::string graph_id = "model";
  std::map<std::string, OpValues> ops;
  for (const AnalysedRow& row : analysis.rows()) {
    if (row.verdict == Verdict::kNotCompared) continue;
    OpValues& v = ops[row_op(row)];
    if (!row.is_input && !v.outputs) {
      v.outputs = true;
      v.rows.clear();
    }
    if (row.is_input == !v.outputs) v.rows.push_back(&row);
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
        const double x = row->cells[static_cast<size_t>(column)].number();
        if (std::isnan(x)) continue;
        if (std::isnan(worst) || (lowest ? x < worst : x > worst)) worst = x;
      }
      if (!std::isnan(worst)) values[op] = worst;
    }
    return values;
  };

  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back(dir + "/graph.json", graph_json(rule, graph_id));
  std::map<std::string, double> verdicts;
  for (const auto& [op, v] : ops) {
    bool pass = true;
    for (const AnalysedRow* row : v.rows) pass &= row->verdict == Verdict::kPass;
    verdicts[op] = pass ? 1.0 : 0.0;
  }
  std::map<std::string, std::string> marked;
  const DivergentOp divergent = analysis.first_divergent();
  const std::string divergent_op = divergent.why.substr(0, divergent.why.find(':'));
  if (divergent.found && verdicts.count(divergent_op)) marked[divergent_op] = kDarkRed;
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
