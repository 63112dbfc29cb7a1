#include "tree/tree_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/atomic_file.hpp"
#include "metrics/metric.hpp"
#include "report/html_report.hpp"
#include "tree/batch_mode.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace {

constexpr size_t kMaxCharts = 12;
constexpr size_t kMaxNamed = 40;  // tensors named in the "not compared" list
// A chart's plot sits inside margins that hold the value labels (left), the step labels (below)
// and the legend (right), so no label crosses a line or another label.
constexpr int kWidth = 760, kHeight = 170, kLeft = 76, kRight = 110, kTop = 12, kBottom = 34;
constexpr double kCharWidth = 6.0;  // of the 10px axis font, enough for digits and names

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

const char* leaf_class(const LeafOutcome& o) {
  if (o.status != LeafStatus::kCompared) return "gone";
  if (o.outside > 0) return "fail";
  return o.not_compared > 0 ? "part" : "pass";
}

// The op a row key names: "conv1:output:0" -> "conv1" (a key without a tensor is the op).
std::string op_of(const std::string& tensor) {
  const size_t last = tensor.rfind(':');
  if (last == std::string::npos || last == 0) return tensor;
  const size_t group = tensor.rfind(':', last - 1);
  return group == std::string::npos ? tensor : tensor.substr(0, group);
}

using Series = std::map<std::string, std::map<std::string, double>>;  // device -> step -> value

// One tensor of a graph across its leaves.
struct TensorTrend {
  std::map<std::string, Series> metrics;  // metric -> its series
  double lowest_cosine = NAN;             // over every device and step; NaN: never computed
  bool compared = false;                  // some metric has a number in some leaf
};

// One chart: a metric of a tensor across the steps, one polyline per device. Cosine's axis ends
// at 1; the others span their values.
std::string trend_chart(const std::string& title, const std::string& metric,
                        const std::vector<std::string>& steps, const Series& by_device) {
  const bool cosine = metric == metric_name(Metric::kCosineSimilarity);
  double lo = cosine ? 1.0 : INFINITY, hi = cosine ? 1.0 : -INFINITY;
  for (const auto& [device, values] : by_device) {
    for (const auto& [step, v] : values) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (cosine) lo = std::min(lo, 0.99);
  if (!std::isfinite(lo)) lo = hi = 0;
  if (hi - lo < 1e-12) hi = lo + 1;
  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const auto step_count = static_cast<double>(steps.size());
  const double spacing = steps.size() < 2 ? plot_width : plot_width / (step_count - 1.0);
  auto x = [&](size_t k) { return kLeft + static_cast<double>(k) * spacing; };
  auto y = [&](double v) { return kTop + (hi - v) / (hi - lo) * plot_height; };
  static const char* const kColours[] = {"#36c", "#c63", "#393", "#939", "#399", "#963"};
  std::string svg = "<h3>" + html_escape(title) + "</h3><svg class=\"trend\" width=\"" +
                    std::to_string(kWidth) + "\" height=\"" + std::to_string(kHeight) + "\">";
  // The plot's frame, the value labels right-aligned left of it.
  svg += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(plot_width) +
         "\" height=\"" + num(plot_height) + "\" class=\"frame\"/>";
  for (const double v : {hi, lo}) {
    svg += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y(v) + 4) +
           "\" class=\"axis\" text-anchor=\"end\">" + num(v) + "</text>";
  }
  // Step labels below the plot, every stride-th one where they would touch.
  size_t widest = 1;
  for (const std::string& s : steps) widest = std::max(widest, s.size());
  const auto stride =
      static_cast<size_t>(std::ceil((static_cast<double>(widest) * kCharWidth + 8) / spacing));
  for (size_t k = 0; k < steps.size(); k += std::max<size_t>(stride, 1)) {
    svg += "<text x=\"" + num(x(k)) + "\" y=\"" + num(kHeight - kBottom + 16) +
           "\" class=\"axis\" text-anchor=\"middle\">" + html_escape(steps[k]) + "</text>";
  }
  svg += "<text x=\"" + num(kLeft + plot_width / 2) + "\" y=\"" + num(kHeight - 4) +
         "\" class=\"axis\" text-anchor=\"middle\">step</text>";
  size_t colour = 0;
  for (const auto& [device, values] : by_device) {
    const char* c = kColours[colour++ % 6];
    std::string points;
    for (size_t k = 0; k < steps.size(); ++k) {
      const auto it = values.find(steps[k]);
      if (it == values.end() || !std::isfinite(it->second)) continue;
      points += num(x(k)) + "," + num(y(it->second)) + " ";
      svg += "<circle cx=\"" + num(x(k)) + "\" cy=\"" + num(y(it->second)) + "\" r=\"3\" fill=\"" +
             c + "\"><title>device " + html_escape(device) + ", step " + html_escape(steps[k]) +
             ": " + num(it->second) + "</title></circle>";
    }
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(c) +
           "\" stroke-width=\"2\" points=\"" + points + "\"><title>device " + html_escape(device) +
           "</title></polyline>";
    // The legend, right of the plot: one entry per device.
    svg += "<text x=\"" + num(kWidth - kRight + 12) + "\" y=\"" +
           std::to_string(kTop + 10 + 14 * static_cast<int>(colour - 1)) +
           "\" class=\"axis\" fill=\"" + c + "\">device " + html_escape(device) + "</text>";
  }
  return svg + "</svg>";
}

// A graph of one step: each charted tensor's values by device, a table instead of lines.
std::string values_table(const std::vector<std::string>& tensors,
                         const std::map<std::string, TensorTrend>& trends,
                         const std::vector<std::string>& devices, const std::string& step) {
  std::set<std::string> metric_names;
  for (const std::string& t : tensors) {
    for (const auto& [metric, series] : trends.at(t).metrics) metric_names.insert(metric);
  }
  // The table's metrics in the result file's order, cosine first.
  std::vector<std::string> metrics;
  for (const Metric m : all_metrics()) {
    if (metric_names.count(std::string(metric_name(m))) != 0) metrics.emplace_back(metric_name(m));
  }
  std::string html =
      "<div class=\"wide\"><table class=\"values\"><tr><th>tensor</th><th>device</th>";
  for (const std::string& m : metrics) html += "<th>" + html_escape(m) + "</th>";
  html += "</tr>\n";
  for (const std::string& t : tensors) {
    for (const std::string& device : devices) {
      html += "<tr><td>" + html_escape(t) + "</td><td>" + html_escape(device) + "</td>";
      for (const std::string& m : metrics) {
        double v = NAN;
        const auto series = trends.at(t).metrics.find(m);
        if (series != trends.at(t).metrics.end()) {
          const auto d = series->second.find(device);
          if (d != series->second.end() && d->second.count(step) != 0) v = d->second.at(step);
        }
        html += "<td>" + (std::isnan(v) ? std::string("NaN") : num(v)) + "</td>";
      }
      html += "</tr>\n";
    }
  }
  return html + "</table></div>\n";
}

// The tensors to chart: the first divergent ops' (in the order the leaves met them) first, then
// those whose cosine fell lowest below 1; only tensors that were compared.
std::vector<std::string> charted_tensors(const std::map<std::string, TensorTrend>& trends,
                                         const std::vector<std::string>& first_ops) {
  std::vector<std::string> chosen;
  std::set<std::string> taken;
  for (const std::string& op : first_ops) {
    std::vector<std::pair<double, std::string>> of_op;
    for (const auto& [tensor, trend] : trends) {
      if (std::isfinite(trend.lowest_cosine) && op_of(tensor) == op) {
        of_op.emplace_back(trend.lowest_cosine, tensor);
      }
    }
    std::sort(of_op.begin(), of_op.end());
    for (const auto& [lowest, tensor] : of_op) {
      if (taken.insert(tensor).second) chosen.push_back(tensor);
    }
  }
  std::vector<std::pair<double, std::string>> lowest;
  for (const auto& [tensor, trend] : trends) {
    if (trend.lowest_cosine < 1.0 && taken.count(tensor) == 0) {
      lowest.emplace_back(trend.lowest_cosine, tensor);
    }
  }
  std::sort(lowest.begin(), lowest.end());
  for (const auto& [value, tensor] : lowest) chosen.push_back(tensor);
  if (chosen.size() > kMaxCharts) chosen.resize(kMaxCharts);
  return chosen;
}

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
h3{font-size:13px;margin:14px 0 2px}table.matrix,table.values{border-collapse:collapse;font-size:12px}
table.matrix td,table.matrix th,table.values td,table.values th{border:1px solid #ccc;padding:4px 8px;text-align:center}
table.values td:first-child{text-align:left}
td.pass{background:#dff3df}td.fail{background:#f6d4d4}td.part{background:#fbefd0}td.gone{background:#e4e4e4;color:#666}
td a{color:inherit}.axis{font-size:10px}svg.trend{display:block}.frame{fill:none;stroke:#ddd}
p.uncompared{font-size:12px;color:#555}div.wide{overflow-x:auto}
)";

}  // namespace

void write_tree_index(const std::string& path, const std::vector<TreeJob>& jobs,
                      const std::vector<LeafOutcome>& outcomes) {
  // graph -> device -> step -> leaf index
  std::map<std::string, std::map<std::string, std::map<std::string, size_t>>> grid;
  std::map<std::string, std::set<std::string>> graph_steps;
  std::map<std::string, std::set<std::string>> graph_names;
  for (size_t k = 0; k < jobs.size() && k < outcomes.size(); ++k) {
    const TreeLeaf& l = jobs[k].leaf;
    // Training dumps stamp each device's graph name with its own time: one matrix per graph id.
    const std::string id = graph_id_of(l.model_name);
    const std::string graph =
        l.single_op() ? "single-op " + l.op_name : (id.empty() ? l.model_name : "graph " + id);
    grid[graph][l.device][l.step] = k;
    graph_steps[graph].insert(l.step);
    if (!id.empty()) graph_names[graph].insert(l.model_name);
  }
  int64_t compared = 0, failing = 0, gone = 0;
  for (const LeafOutcome& o : outcomes) {
    compared += o.status == LeafStatus::kCompared;
    failing += o.outside > 0;
    gone += o.status != LeafStatus::kCompared;
  }
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>dumpcmp "
      "run</title><style>";
  html += kStyle;
  html += "</style></head><body>\n<h1>dumpcmp: whole run</h1>\n<p>" + std::to_string(jobs.size()) +
          " leaves: " + std::to_string(compared) + " compared (" + std::to_string(failing) +
          " with tensors outside tolerance), " + std::to_string(gone) +
          " not compared. Green: every tensor within tolerance; red: some outside; amber: some "
          "not compared; grey: no golden or failed. Each cell links to the leaf's result "
          "(summary.csv has every count).</p>\n";
  const std::string cosine(metric_name(Metric::kCosineSimilarity));
  for (const auto& [graph, devices] : grid) {
    std::vector<std::string> steps(graph_steps[graph].begin(), graph_steps[graph].end());
    std::sort(steps.begin(), steps.end(), natural_less);
    std::string names;
    for (const std::string& n : graph_names[graph]) names += (names.empty() ? "" : ", ") + n;
    html += "<h2>" + html_escape(graph) + (names.empty() ? "" : " (" + html_escape(names) + ")") +
            "</h2>\n<table class=\"matrix\"><tr><th>device \\ step</th>";
    for (const std::string& s : steps) html += "<th>" + html_escape(s) + "</th>";
    html += "</tr>\n";
    std::vector<std::string> device_names;
    for (const auto& entry : devices) device_names.push_back(entry.first);
    std::sort(device_names.begin(), device_names.end(), natural_less);
    std::map<std::string, TensorTrend> trends;
    std::vector<std::pair<int64_t, std::string>> first_ops;  // (Index, op) of each leaf's first
    for (const std::string& device : device_names) {
      html += "<tr><th>" + html_escape(device) + "</th>";
      for (const std::string& s : steps) {
        const auto it = devices.at(device).find(s);
        if (it == devices.at(device).end()) {
          html += "<td></td>";
          continue;
        }
        const LeafOutcome& o = outcomes[it->second];
        std::string text = o.status == LeafStatus::kCompared
                               ? std::to_string(o.outside) + " / " + std::to_string(o.compared)
                               : std::string(leaf_status_name(o.status));
        std::string title = jobs[it->second].leaf.label();
        if (!o.first_op.empty()) {
          title += "; first divergent op: " + o.first_op;
          first_ops.emplace_back(o.first_index, o.first_op);
        }
        if (!o.message.empty()) title += "; " + o.message;
        if (!o.result_file.empty()) {
          text = "<a href=\"" + html_escape(o.result_file) + "\">" + text + "</a>";
        }
        if (o.values) {
          const LeafValues& v = *o.values;
          for (size_t t = 0; t < v.tensors.size(); ++t) {
            TensorTrend& trend = trends[v.tensors[t]];
            for (size_t m = 0; m < v.metrics.size(); ++m) {
              const double value = v.at(t, m);
              trend.metrics[v.metrics[m]][device][s] = value;
              trend.compared = trend.compared || std::isfinite(value);
              if (v.metrics[m] == cosine && std::isfinite(value)) {
                trend.lowest_cosine =
                    std::isnan(trend.lowest_cosine) ? value : std::min(trend.lowest_cosine, value);
              }
            }
          }
        }
        html += "<td class=\"" + std::string(leaf_class(o)) + "\" title=\"" + html_escape(title) +
                "\">" + text + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</table>\n";
    std::sort(first_ops.begin(), first_ops.end());
    std::vector<std::string> first_names;
    for (const auto& [index, op] : first_ops) {
      if (std::find(first_names.begin(), first_names.end(), op) == first_names.end()) {
        first_names.push_back(op);
      }
    }
    const std::vector<std::string> charted = charted_tensors(trends, first_names);
    const bool one_step = steps.size() < 2;
    if (!charted.empty()) {
      html += "<p>" + std::string(one_step ? "Values" : "Cosine similarity across steps") +
              " of the " + std::to_string(charted.size()) +
              " compared tensors that fall lowest, the first divergent op's first" +
              (one_step ? " (one step: a table, not lines)"
                        : " (one line per device); open a tensor for its other metrics") +
              ":</p>\n";
    }
    if (one_step) {
      if (!charted.empty()) html += values_table(charted, trends, device_names, steps.front());
    } else {
      for (const std::string& tensor : charted) {
        const TensorTrend& trend = trends.at(tensor);
        html += trend_chart(tensor + ": " + cosine, cosine, steps, trend.metrics.at(cosine)) +
                "\n<details><summary>other metrics of " + html_escape(tensor) + "</summary>\n";
        for (const auto& [metric, series] : trend.metrics) {
          if (metric != cosine) {
            html += trend_chart(tensor + ": " + metric, metric, steps, series) + "\n";
          }
        }
        html += "</details>\n";
      }
    }
    // Tensors without a number in any leaf (not compared, or NaN throughout): named, not charted.
    std::vector<std::string> never;
    for (const auto& [tensor, trend] : trends) {
      if (!trend.compared) never.push_back(tensor);
    }
    if (!never.empty()) {
      html += "<p class=\"uncompared\">" + std::to_string(never.size()) + " tensor" +
              (never.size() == 1 ? " has" : "s have") +
              " no number in any leaf (not compared: no golden, a failed or one-sided row; or "
              "NaN in every metric; the leaves' result files say why): ";
      for (size_t i = 0; i < never.size() && i < kMaxNamed; ++i) {
        html += (i ? ", " : "") + html_escape(never[i]);
      }
      html += never.size() > kMaxNamed ? ", ...</p>\n" : "</p>\n";
    }
  }
  html += "</body></html>\n";
  write_file_atomically(path, html);
}

}  // namespace dumpcmp
