#pragma once
// A model's layer graph drawn as one self-contained HTML file (inline SVG, no scripts): layers in
// rows by their depth from the model inputs, data edges as lines, the chosen sub-model marked
// (the seed's "Show Result" view, for choosing --start and --end).
#include <string>
#include <vector>

#include "extract/layer_graph.hpp"

namespace dumpcmp {

// `chosen`: the sub-model's layer indexes (may be empty); start and end are outlined.
std::string graph_html(const LayerGraph& graph, const std::vector<int>& chosen,
                       const std::string& start, const std::string& end);

}  // namespace dumpcmp
