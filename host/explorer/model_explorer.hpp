#pragma once
// Google's Model Explorer view of a compare (docs/model-explorer.md): the offline model's graph as
// Model Explorer's JSON graph (a GraphCollection), and node data files that colour each op by the
// compare's results, so that `model-explorer DIR/graph.json --node_data_paths=DIR/verdict.json`
// shows where the network goes wrong.
#include <string>
#include <vector>

#include "extract/layer_graph.hpp"
#include "fusion/fusion_rule.hpp"
#include "report/result_analysis.hpp"

namespace dumpcmp {

// Writes DIR/graph.json (every op of the rule, its inputs as edges, its attributes and output
// descs; or, with `original`, every layer of the original model the offline model was built
// from, each coloured by the rows of the ops whose original op names include it), DIR/verdict.json
// (1: the op's rows pass, 0: one fails; the first divergent op in a darker red), and with their
// metric selected DIR/cosine.json (the op's lowest CosineSimilarity) and
// DIR/max_relative_error.json (its highest MaxRelativeError). An op's value comes from its output
// rows, else its input rows; ops without a compared row have none. Each file is written whole or
// not at all; returns their paths. Throws Error naming a file that cannot be written.
std::vector<std::string> write_model_explorer(const std::string& dir, const FusionRule& rule,
                                              const ResultAnalysis& analysis,
                                              const LayerGraph* original = nullptr);

}  // namespace dumpcmp
