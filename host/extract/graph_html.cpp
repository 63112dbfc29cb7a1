#include "extract/graph_html.hpp"

#include <algorithm>
#include <deque>
#include <set>

#include "core/text.hpp"

namespace dumpcmp {
namespace {

constexpr int kBoxWidth = 180, kBoxHeight = 40, kGapX = 30, kGapY = 50, kMargin = 20;

// Long names are cut so that the box stays readable; the full name is in the box's title.
std::string shorten(const std::string& text) {
  return text.size() <= 26 ? text : text.substr(0, 23) + "...";
}

}  // namespace

std::string graph_html(const LayerGraph& graph, const std::vector<int>& chosen,
                       const std::string& start, const std::string& end) {
  const size_t n = graph.layers.size();
  const std::vector<std::vector<int>> producers = graph.producers();
  // Depth: the longest path from a layer without producers (Kahn's order; layers on a cycle keep
  // the depth they had reached).
  std::vector<std::vector<int>> next(n);
  std::vector<int> waiting(n, 0), depth(n, 0);
  for (size_t i = 0; i < n; ++i) {
    std::set<int> from(producers[i].begin(), producers[i].end());
    for (const int p : from) {
      if (p < 0 || static_cast<size_t>(p) == i) continue;
      next[static_cast<size_t>(p)].push_back(static_cast<int>(i));
      ++waiting[i];
    }
  }
  std::deque<int> ready;
  for (size_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(static_cast<int>(i));
  }
  while (!ready.empty()) {
    const auto u = static_cast<size_t>(ready.front());
    ready.pop_front();
    for (const int v : next[u]) {
      depth[static_cast<size_t>(v)] = std::max(depth[static_cast<size_t>(v)], depth[u] + 1);
      if (--waiting[static_cast<size_t>(v)] == 0) ready.push_back(v);
    }
  }
  std::vector<int> column(n, 0), row_width;
  for (size_t i = 0; i < n; ++i) {
    const auto d = static_cast<size_t>(depth[i]);
    if (row_width.size() <= d) row_width.resize(d + 1, 0);
    column[i] = row_width[d]++;
  }
  const int widest = row_width.empty() ? 0 : *std::max_element(row_width.begin(), row_width.end());
  const int width = 2 * kMargin + std::max(1, widest) * (kBoxWidth + kGapX);
  const int height = 2 * kMargin + static_cast<int>(row_width.size()) * (kBoxHeight + kGapY);
  auto x_of = [&](size_t i) { return kMargin + column[i] * (kBoxWidth + kGapX); };
  auto y_of = [&](size_t i) { return kMargin + depth[i] * (kBoxHeight + kGapY); };

  const std::set<int> marked(chosen.begin(), chosen.end());
  std::string svg;
  for (size_t i = 0; i < n; ++i) {
    for (const int v : next[i]) {
      const auto j = static_cast<size_t>(v);
      const bool inside = marked.count(static_cast<int>(i)) && marked.count(v);
      svg += "<line x1=\"" + std::to_string(x_of(i) + kBoxWidth / 2) + "\" y1=\"" +
             std::to_string(y_of(i) + kBoxHeight) + "\" x2=\"" +
             std::to_string(x_of(j) + kBoxWidth / 2) + "\" y2=\"" + std::to_string(y_of(j)) +
             "\" class=\"" + (inside ? "edge in" : "edge") + "\"/>\n";
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const Layer& layer = graph.layers[i];
    std::string cls = marked.count(static_cast<int>(i)) ? "layer in" : "layer";
    if (layer.name == start) cls += " start";
    if (layer.name == end) cls += " end";
    std::string title = layer.name + " (" + layer.type + ")";
    for (const std::string& t : layer.outputs) {
      const auto it = graph.tensors.find(t);
      title += "\n" + t + " " + tensor_type_text(it == graph.tensors.end() ? nullptr : &it->second);
    }
    svg += "<g class=\"" + cls + "\"><title>" + html_escape(title) + "</title><rect x=\"" +
           std::to_string(x_of(i)) + "\" y=\"" + std::to_string(y_of(i)) + "\" width=\"" +
           std::to_string(kBoxWidth) + "\" height=\"" + std::to_string(kBoxHeight) +
           "\" rx=\"6\"/><text x=\"" + std::to_string(x_of(i) + kBoxWidth / 2) + "\" y=\"" +
           std::to_string(y_of(i) + 17) + "\">" + html_escape(shorten(layer.name)) +
           "</text><text class=\"type\" x=\"" + std::to_string(x_of(i) + kBoxWidth / 2) +
           "\" y=\"" + std::to_string(y_of(i) + 32) + "\">" + html_escape(shorten(layer.type)) +
           "</text></g>\n";
  }
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" +
         html_escape(graph.source) +
         "</title>\n<style>\nbody{font-family:sans-serif}\n"
         ".layer rect{fill:#f4f4f4;stroke:#888}\n.layer.in rect{fill:#cfe2ff;stroke:#1f5fbf}\n"
         ".layer.start rect{stroke:#1a8f3a;stroke-width:3}\n"
         ".layer.end rect{stroke:#c0392b;stroke-width:3}\n"
         "text{font-size:12px;text-anchor:middle}\ntext.type{fill:#555;font-size:11px}\n"
         ".edge{stroke:#aaa}\n.edge.in{stroke:#1f5fbf;stroke-width:2}\n</style></head><body>\n"
         "<h3>" +
         html_escape(graph.source) + ": " + std::to_string(n) + " layers" +
         (chosen.empty() ? std::string()
                         : ", sub-model " + html_escape(start) + " to " + html_escape(end) + ": " +
                               std::to_string(chosen.size()) + " layers (blue)") +
         "</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\">\n" + svg + "</svg>\n</body></html>\n";
}

}  // namespace dumpcmp
