#pragma once
// The graphs of a model file (atc JSON or GE graph text) and which of them is the computational
// graph, the one whose dump directories a training run's compare takes (docs/formats.md §4.6).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

struct GeGraphSummary {
  std::string name;  // "" when the graph has none
  std::size_t op_count = 0;
  bool has_iterator = false;  // holds an op of type IteratorV2, Iterator or GetNext
  std::string parent;  // the graph one of whose ops names this one in subgraph_name; "" if none
};

// The model's graphs in file order. `path` names the file in errors and tells the formats apart
// (is_ge_graph_text). Throws Error(kInput) for a file that is neither, or that has no "graph"
// array.
std::vector<GeGraphSummary> list_graphs(std::string_view model_text, const std::string& path);
std::vector<GeGraphSummary> list_graphs_file(const std::string& path);

// Training runs build an init graph beside the computational graph; the computational graph is
// the one holding the data iterator (IteratorV2, Iterator or GetNext). Returns the name of the
// first such graph in file order, or of its root graph when it is a subgraph (the dump directories
// are named after the root), or nullopt when no graph holds one.
std::optional<std::string> computational_graph_name(const std::vector<GeGraphSummary>& graphs);

// Whether an op type is one of the data iterators above.
bool is_iterator_op_type(std::string_view type);

}  // namespace dumpcmp
