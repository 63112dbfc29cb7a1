#include "extract/layer_graph.hpp"

#include <deque>
#include <unordered_map>

#include "core/error.hpp"

namespace dumpcmp {
std::vector<char> reachable(const std::vector<std::vector<int>>& next, int from) {
  std::vector<char> seen(next.size(), 0);
  std::deque<int> todo = {from};
  seen[static_cast<size_t>(from)] = 1;
  while (!todo.empty()) {
    const int at = todo.front();
    todo.pop_front();
    for (const int to : next[static_cast<size_t>(at)]) {
      if (!seen[static_cast<size_t>(to)]) {
        seen[static_cast<size_t>(to)] = 1;
        todo.push_back(to);
      }
    }
  }
  return seen;
}

int LayerGraph::find(const std::string& name) const {
  for (size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::vector<int>> LayerGraph::producers() const {
  // TensorFlow lists nodes in any order: a tensor with no writer before its reader comes from
  // its (only) writer anywhere.
  std::unordered_map<std::string, int> any, latest;
  for (size_t i = 0; i < layers.size(); ++i) {
    for (const std::string& t : layers[i].outputs) any[t] = static_cast<int>(i);
  }
  std::vector<std::vector<int>> out(layers.size());
  for (size_t i = 0; i < layers.size(); ++i) {
    for (const std::string& t : layers[i].inputs) {
      int p = -1;
      if (const auto it = latest.find(t); it != latest.end()) {
        p = it->second;
      } else if (const auto a = any.find(t); a != any.end()) {
        p = a->second;
      }
      out[i].push_back(p);
    }
    for (const std::string& t : layers[i].outputs) latest[t] = static_cast<int>(i);
  }
  return out;
}

SubModel select_submodel(const LayerGraph& graph, const std::string& start,
                         const std::string& end) {
  auto find = [&](const std::string& name, const char* which) {
    const int at = graph.find(name);
    if (at < 0) {
      throw Error(ExitCode::kUsage, std::string("the ") + which + " layer \"" + name +
                                        "\" is not in the model " + graph.source);
    }
    return at;
  };
  const int from = find(start, "start"), to = find(end, "end");
  const size_t n = graph.layers.size();
  const std::vector<std::vector<int>> producer = graph.producers();
  std::vector<std::vector<int>> next(n), prev(n);
  for (size_t i = 0; i < n; ++i) {
    for (const int p : producer[i]) {
      if (p < 0 || static_cast<size_t>(p) == i) continue;
      next[static_cast<size_t>(p)].push_back(static_cast<int>(i));
      prev[i].push_back(p);
    }
  }
  const std::vector<char> after = reachable(next, from), before = reachable(prev, to);
  std::vector<char> chosen(n, 0);
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    chosen[i] = after[i] && before[i];
    any = any || chosen[i];
  }
  if (!any) {
    const bool reversed = reachable(next, to)[static_cast<size_t>(from)];
    throw Error(ExitCode::kUsage, "no data path leads from layer \"" + start + "\" to layer \"" +
                                      end + "\"" +
                                      (reversed ? ": the end layer comes before the start layer"
                                                : ": they are not connected"));
  }

  // Layers whose every input is a constant or made from constants only; 1 yes, 0 no. A cycle
  // counts as not constant.
  std::vector<int> constant(n, -1);
  std::vector<char> visiting(n, 0);
  auto is_constant = [&](int root) {
    std::vector<std::pair<int, size_t>> stack = {{root, 0}};
    visiting[static_cast<size_t>(root)] = 1;
    while (!stack.empty()) {
      auto& [at, j] = stack.back();
      const auto u = static_cast<size_t>(at);
      bool result = !graph.layers[u].feeds_model;
      bool pushed = false;
      for (; result && j < producer[u].size(); ++j) {
        const int p = producer[u][j];
        if (p < 0) {
          result = graph.constants.count(graph.layers[u].inputs[j]) > 0;
        } else if (constant[static_cast<size_t>(p)] >= 0) {
          result = constant[static_cast<size_t>(p)] == 1;
        } else if (visiting[static_cast<size_t>(p)]) {
          result = false;
        } else {
          visiting[static_cast<size_t>(p)] = 1;
          stack.push_back({p, 0});
          pushed = true;
          break;
        }
      }
      if (pushed) continue;
      constant[u] = result ? 1 : 0;
      visiting[u] = 0;
      stack.pop_back();
    }
    return constant[static_cast<size_t>(root)] == 1;
  };
  // The constant feeders of chosen layers, with theirs (all constant too).
  std::deque<int> todo;
  for (size_t i = 0; i < n; ++i) {
    if (chosen[i]) todo.push_back(static_cast<int>(i));
  }
  while (!todo.empty()) {
    const auto u = static_cast<size_t>(todo.front());
    todo.pop_front();
    for (const int p : producer[u]) {
      if (p >= 0 && !chosen[static_cast<size_t>(p)] && is_constant(p)) {
        chosen[static_cast<size_t>(p)] = 1;
        todo.push_back(p);
      }
    }
  }

  SubModel sub;
  std::set<std::string> seen;
  auto add_inputs = [&](size_t i) {
    for (size_t j = 0; j < producer[i].size(); ++j) {
      const int p = producer[i][j];
      const std::string& t = graph.layers[i].inputs[j];
      const bool inside = p >= 0 && chosen[static_cast<size_t>(p)] && p != static_cast<int>(i);
      if (inside || (p < 0 && graph.constants.count(t)) || !seen.insert(t).second) continue;
      sub.inputs.push_back(t);
      sub.input_consumers.push_back(graph.layers[i].name);
      sub.input_slots.push_back(static_cast<int>(j));
    }
  };
  add_inputs(static_cast<size_t>(from));
  for (size_t i = 0; i < n; ++i) {
    if (!chosen[i]) continue;
    sub.layers.push_back(static_cast<int>(i));
    if (static_cast<int>(i) != from) add_inputs(i);
  }
  sub.outputs = graph.layers[static_cast<size_t>(to)].outputs;
  return sub;
}

std::string tensor_type_text(const TensorType* type) {
  if (!type || !type->has_shape) return "?";
  std::string out = "[";
  for (size_t i = 0; i < type->dims.size(); ++i) {
    if (i) out += ',';
    out += type->dims[i] < 0 ? std::string("?") : std::to_string(type->dims[i]);
  }
  return out + "]";
}

}  // namespace dumpcmp
