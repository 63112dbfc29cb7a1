#include "tree/tree_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
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
constexpr int kWidth = 720, kHeight = 140, kMargin = 40,
              kLegend = 90;  // kLegend: right of the plot

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// metric -> tensor (TensorIndex, else the op) -> value, from one result CSV: every metric column
// that holds numbers (StandardDeviation's pairs are skipped); NaN where not computed.
using CsvMetrics = std::map<std::string, std::map<std::string, double>>;

CsvMetrics metrics_by_tensor(const std::string& csv_path) {
  CsvMetrics values;
  std::ifstream in(csv_path);
  std::string line;
  if (!std::getline(in, line)) return values;
  const std::vector<std::string> header = split_csv_line(line);
  auto column = [&header](std::string_view name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  const int op = column("NPUDump"), tensor = column("TensorIndex");
  if (op < 0 || tensor < 0) return values;
  std::vector<std::pair<std::string, int>> metrics;
  for (const Metric m : all_metrics()) {
    const int k = column(metric_name(m));
    if (k >= 0 && m != Metric::kStandardDeviation) metrics.emplace_back(metric_name(m), k);
  }
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split_csv_line(line);
    const std::string& key = cells.size() > static_cast<size_t>(std::max(op, tensor)) &&
                                     !(cells[tensor].empty() || cells[tensor] == "NaN")
                                 ? cells[tensor]
                                 : cells[std::min(static_cast<size_t>(op), cells.size() - 1)];
    for (const auto& [name, k] : metrics) {
      if (static_cast<size_t>(k) >= cells.size()) continue;
      char* end = nullptr;
      const double v = std::strtod(cells[k].c_str(), &end);
      values[name][key] = end && *end == '\0' && !cells[k].empty() ? v : std::nan("");
    }
  }
  return values;
}

const char* leaf_class(const LeafOutcome& o) {
  if (o.status != LeafStatus::kCompared) return "gone";
  if (o.outside > 0) return "fail";
  return o.not_compared > 0 ? "part" : "pass";
}

// One chart: a metric of a tensor across the steps, one polyline per device. Cosine's axis ends
// at 1; the others span their values.
std::string trend_chart(const std::string& title, const std::string& metric,
                        const std::vector<std::string>& steps,
                        const std::map<std::string, std::map<std::string, double>>& by_device) {
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
  auto x = [&](size_t k) {
    return kMargin + (steps.size() < 2 ? 0.0
                                       : static_cast<double>(k) * (kWidth - 2 * kMargin - kLegend) /
                                             static_cast<double>(steps.size() - 1));
  };
  auto y = [&](double v) { return kMargin / 2 + (hi - v) / (hi - lo) * (kHeight - kMargin); };
  static const char* const kColours[] = {"#36c", "#c63", "#393", "#939", "#399", "#963"};
  std::string svg = "<h3>" + html_escape(title) + "</h3><svg class=\"trend\" width=\"" +
                    std::to_string(kWidth) + "\" height=\"" + std::to_string(kHeight) + "\">";
  svg += "<text x=\"2\" y=\"" + num(y(hi) + 4) + "\" class=\"axis\">" + num(hi) +
         "</text><text x=\"2\" y=\"" + num(y(lo) + 4) + "\" class=\"axis\">" + num(lo) + "</text>";
  for (size_t k = 0; k < steps.size(); ++k) {
    svg += "<text x=\"" + num(x(k) - 4) + "\" y=\"" + std::to_string(kHeight - 4) +
           "\" class=\"axis\">" + html_escape(steps[k]) + "</text>";
  }
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
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(c) + "\" points=\"" + points +
           "\"><title>device " + html_escape(device) + "</title></polyline>";
    // The legend, top right: one entry per device.
    svg += "<text x=\"" + std::to_string(kWidth - kLegend) + "\" y=\"" +
           std::to_string(12 * colour) + "\" class=\"axis\" fill=\"" + c + "\">device " +
           html_escape(device) + "</text>";
  }
  return svg + "</svg>";
}

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
h3{font-size:13px;margin:14px 0 2px}table.matrix{border-collapse:collapse;font-size:12px}
table.matrix td,table.matrix th{border:1px solid #ccc;padding:4px 8px;text-align:center}
td.pass{background:#dff3df}td.fail{background:#f6d4d4}td.part{background:#fbefd0}td.gone{background:#e4e4e4;color:#666}
td a{color:inherit}.axis{font-size:10px}svg.trend{border:1px solid #ddd;display:block}
)";

}  // namespace

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

void write_tree_index(const std::string& path, const std::string& out_dir,
                      const std::vector<TreeJob>& jobs, const std::vector<LeafOutcome>& outcomes) {
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
    // metric -> tensor -> device -> step -> value
    std::map<std::string,
             std::map<std::string, std::map<std::string, std::map<std::string, double>>>>
        trends;
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
        if (!o.first_op.empty()) title += "; first divergent op: " + o.first_op;
        if (!o.message.empty()) title += "; " + o.message;
        if (!o.result_file.empty()) {
          text = "<a href=\"" + html_escape(o.result_file) + "\">" + text + "</a>";
          for (const auto& [metric, by_tensor] : metrics_by_tensor(out_dir + "/" + o.result_file)) {
            for (const auto& [tensor, v] : by_tensor) trends[metric][tensor][device][s] = v;
          }
        }
        html += "<td class=\"" + std::string(leaf_class(o)) + "\" title=\"" + html_escape(title) +
                "\">" + text + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</table>\n";
    // The tensors whose cosine falls lowest anywhere (NaN counts as lowest).
    const std::string cosine(metric_name(Metric::kCosineSimilarity));
    std::vector<std::pair<double, std::string>> worst;
    for (const auto& [tensor, by_device] : trends[cosine]) {
      double lowest = 1.0;
      for (const auto& [device, values] : by_device) {
        for (const auto& [s, v] : values) lowest = std::isnan(v) ? -2.0 : std::min(lowest, v);
      }
      if (lowest < 1.0) worst.emplace_back(lowest, tensor);
    }
    std::sort(worst.begin(), worst.end());
    if (worst.size() > kMaxCharts) worst.resize(kMaxCharts);
    if (!worst.empty()) {
      html += "<p>Cosine similarity across steps of the " + std::to_string(worst.size()) +
              " tensors that fall lowest (one line per device); open a tensor for its other "
              "metrics:</p>\n";
    }
    for (const auto& [lowest, tensor] : worst) {
      html += trend_chart(tensor + ": " + cosine, cosine, steps, trends[cosine][tensor]) +
              "\n<details><summary>other metrics of " + html_escape(tensor) + "</summary>\n";
      for (auto& [metric, by_tensor] : trends) {
        if (metric != cosine && by_tensor.count(tensor) != 0) {
          html += trend_chart(tensor + ": " + metric, metric, steps, by_tensor[tensor]) + "\n";
        }
      }
      html += "</details>\n";
    }
  }
  html += "</body></html>\n";
  write_file_atomically(path, html);
}

}  // namespace dumpcmp
