#pragma once
// What the extract --model fuzz targets do with a model that parsed: choose the sub-model between
// its first and last layer, write it with nothing known of the inputs, list it and draw it. Each
// step may refuse with dumpcmp::Error, never crash.
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "extract/graph_html.hpp"
#include "extract/model_export.hpp"
#include "extract/source_model.hpp"

namespace dumpcmp::fuzz {

inline void exercise_model(const SourceModel& model) {
  const LayerGraph& g = model.graph();
  (void)list_layers(model, nullptr, {});
  if (g.layers.empty()) return;
  try {
    const SubModel sub = select_submodel(g, g.layers.front().name, g.layers.back().name);
    (void)graph_html(g, sub.layers, g.layers.front().name, g.layers.back().name);
    std::vector<std::string> added;
    (void)model.write(sub, KnownTypes{}, added);
  } catch (const Error&) {
  }
}

}  // namespace dumpcmp::fuzz
