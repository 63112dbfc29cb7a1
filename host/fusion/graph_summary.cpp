#include "fusion/graph_summary.hpp"

#include <simdjson.h>

#include <unordered_map>
#include <utility>

#include "core/error.hpp"
#include "fusion/ge_graph_text.hpp"

namespace dumpcmp {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

class GraphLister {
 public:
  explicit GraphLister(const std::string& path) : path_(path) {}

  std::vector<GeGraphSummary> read(const simdjson::padded_string& json) {
    simdjson::dom::parser parser;
    element root;
    const simdjson::error_code error = parser.parse(json).get(root);
    if (error != simdjson::SUCCESS) {
      throw format_error(path_, std::string("invalid JSON: ") + simdjson::error_message(error));
    }
    object model;
    if (root.get(model) != simdjson::SUCCESS) fail("", "expected an object");
    element graphs_element;
    array graphs;
    if (model["graph"].get(graphs_element) != simdjson::SUCCESS) fail("", "missing \"graph\"");
    if (graphs_element.get(graphs) != simdjson::SUCCESS) fail("graph", "expected an array");

    std::vector<GeGraphSummary> out;
    std::unordered_map<std::string, std::string> parent_of;  // subgraph name -> graph naming it
    size_t g = 0;
    for (const element graph_element : graphs) {
      const std::string where = "graph[" + std::to_string(g++) + "]";
      object graph;
      if (graph_element.get(graph) != simdjson::SUCCESS) fail(where, "expected an object");
      GeGraphSummary summary;
      element e;
      if (graph["name"].get(e) == simdjson::SUCCESS) summary.name = string_of(e, where + ".name");
      array ops;
      if (graph["op"].get(e) == simdjson::SUCCESS) {
        if (e.get(ops) != simdjson::SUCCESS) fail(where + ".op", "expected an array");
        size_t k = 0;
        for (const element op_element : ops) {
          const std::string op_where = where + ".op[" + std::to_string(k++) + "]";
          object op;
          if (op_element.get(op) != simdjson::SUCCESS) fail(op_where, "expected an object");
          ++summary.op_count;
          if (op["type"].get(e) == simdjson::SUCCESS &&
              is_iterator_op_type(string_of(e, op_where + ".type"))) {
            summary.has_iterator = true;
          }
          array subgraphs;
          if (op["subgraph_name"].get(e) == simdjson::SUCCESS) {
            if (e.get(subgraphs) != simdjson::SUCCESS) {
              fail(op_where + ".subgraph_name", "expected an array");
            }
            for (const element sub : subgraphs) {
              parent_of.emplace(string_of(sub, op_where + ".subgraph_name"), summary.name);
            }
          }
        }
      }
      out.push_back(std::move(summary));
    }
    for (GeGraphSummary& summary : out) {
      const auto it = parent_of.find(summary.name);
      if (it != parent_of.end() && it->second != summary.name) summary.parent = it->second;
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw format_error(path_, where.empty() ? problem : where + ": " + problem);
  }

  std::string string_of(element e, const std::string& where) const {
    std::string_view s;
    if (e.get(s) != simdjson::SUCCESS) fail(where, "expected a string");
    return std::string(s);
  }

  const std::string& path_;
};

}  // namespace

bool is_iterator_op_type(std::string_view type) {
  return type == "IteratorV2" || type == "Iterator" || type == "GetNext";
}

std::vector<GeGraphSummary> list_graphs(std::string_view model_text, const std::string& path) {
  if (is_ge_graph_text(path, model_text)) {
    const std::string json = ge_text_to_atc_json(model_text, path);
    return GraphLister(path).read(simdjson::padded_string(json));
  }
  return GraphLister(path).read(simdjson::padded_string(model_text));
}

std::vector<GeGraphSummary> list_graphs_file(const std::string& path) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) {
    throw format_error(path, "cannot read the model file");
  }
  return list_graphs(std::string_view(text.data(), text.size()), path);
}

std::optional<std::string> computational_graph_name(const std::vector<GeGraphSummary>& graphs) {
  for (const GeGraphSummary& graph : graphs) {
    if (!graph.has_iterator) continue;
    // Up to the root; a chain longer than the graph list is a cycle, which ends the walk.
    const GeGraphSummary* at = &graph;
    for (size_t steps = 0; !at->parent.empty() && steps < graphs.size(); ++steps) {
      const GeGraphSummary* up = nullptr;
      for (const GeGraphSummary& candidate : graphs) {
        if (candidate.name == at->parent) {
          up = &candidate;
          break;
        }
      }
      if (up == nullptr) break;
      at = up;
    }
    return at->name;
  }
  return std::nullopt;
}

}  // namespace dumpcmp
