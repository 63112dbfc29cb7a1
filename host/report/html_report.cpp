#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/atomic_file.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {

namespace {

std::string num(double v, const char* format = "%.6g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const char* verdict_class(Verdict v) {
  return v == Verdict::kPass ? "pass" : (v == Verdict::kFail ? "fail" : "skip");
}

constexpr int kChartWidth = 960, kChartHeight = 220, kMargin = 48;
constexpr size_t kMaxPoints = 2000;

// A metric along the op order: one point per row (or the worst of each bucket when there are
// more rows than kMaxPoints), coloured by verdict, the limit as a dashed line.
std::string metric_chart(const ResultAnalysis& a, size_t k, double limit, bool lower_is_worse) {
  const Metric m = a.metrics()[k];
  struct Point {
    double x, y;
    Verdict verdict;
    std::string label;
  };
  std::vector<Point> points;
  const auto& rows = a.rows();
  const size_t bucket = std::max<size_t>(1, (rows.size() + kMaxPoints - 1) / kMaxPoints);
  for (size_t begin = 0; begin < rows.size(); begin += bucket) {
    const AnalysedRow* pick = nullptr;
    double pick_v = 0;
    for (size_t i = begin; i < std::min(rows.size(), begin + bucket); ++i) {
      const double v = rows[i].cells[k].number();
      if (!std::isfinite(v)) continue;
      if (!pick || (lower_is_worse ? v < pick_v : v > pick_v)) {
        pick = &rows[i];
        pick_v = v;
      }
    }
    if (pick) {
      points.push_back({static_cast<double>(begin), pick_v, pick->verdict,
                        "#" + std::to_string(pick->index) + " " + pick->tensor_index});
    }
  }
  double lo = limit, hi = limit;
  for (const Point& p : points) {
    lo = std::min(lo, p.y);
    hi = std::max(hi, p.y);
  }
  if (hi - lo < 1e-12) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const double w = kChartWidth - 2 * kMargin, h = kChartHeight - 2 * kMargin / 2;
  const double n = std::max<double>(1, static_cast<double>(rows.size() - 1));
  auto sx = [&](double x) { return kMargin + x / n * w; };
  auto sy = [&](double y) { return kMargin / 2 + (hi - y) / (hi - lo) * h; };
  std::string svg = "<svg class=\"chart\" role=\"img\" width=\"" + std::to_string(kChartWidth) +
                    "\" height=\"" + std::to_string(kChartHeight) + "\" data-metric=\"" +
                    std::string(metric_name(m)) + "\">";
  svg += "<text x=\"4\" y=\"14\" class=\"axis\">" + std::string(metric_name(m)) + "</text>";
  svg += "<text x=\"4\" y=\"" + num(sy(hi) + 12, "%.1f") + "\" class=\"axis\">" + num(hi - pad) +
         "</text>";
  svg +=
      "<text x=\"4\" y=\"" + num(sy(lo), "%.1f") + "\" class=\"axis\">" + num(lo + pad) + "</text>";
  svg += "<line class=\"limit\" x1=\"" + num(kMargin) + "\" x2=\"" + num(kMargin + w) + "\" y1=\"" +
         num(sy(limit), "%.2f") + "\" y2=\"" + num(sy(limit), "%.2f") + "\"><title>limit " +
         num(limit) + "</title></line>";
  std::string path;
  for (const Point& p : points) {
    path += (path.empty() ? "M" : " L") + num(sx(p.x), "%.1f") + "," + num(sy(p.y), "%.1f");
  }
  if (!path.empty()) svg += "<path class=\"trace\" d=\"" + path + "\"/>";
  for (const Point& p : points) {
    svg += "<circle class=\"" + std::string(verdict_class(p.verdict)) + "\" cx=\"" +
           num(sx(p.x), "%.1f") + "\" cy=\"" + num(sy(p.y), "%.1f") + "\" r=\"3\"><title>" +
           html_escape(p.label) + ": " + num(p.y) + "</title></circle>";
  }
  svg += "<text x=\"" + num(kMargin) + "\" y=\"" + std::to_string(kChartHeight - 4) +
         "\" class=\"axis\">op order (Index) &#8594;</text></svg>";
  return svg;
}

// How the compared rows' cosine similarities are distributed (20 bins).
std::string cosine_histogram(const ResultAnalysis& a) {
  const auto& metrics = a.metrics();
  const auto it = std::find(metrics.begin(), metrics.end(), Metric::kCosineSimilarity);
  if (it == metrics.end()) return "";
  const size_t k = static_cast<size_t>(it - metrics.begin());
  std::vector<double> values;
  for (const AnalysedRow& r : a.rows()) {
    const double v = r.cells[k].number();
    if (std::isfinite(v)) values.push_back(v);
  }
  if (values.empty()) return "";
  const double lo = *std::min_element(values.begin(), values.end());
  const double hi = std::max(*std::max_element(values.begin(), values.end()), lo + 1e-9);
  constexpr int kBins = 20;
  std::vector<int64_t> bins(kBins, 0);
  for (double v : values) {
    bins[static_cast<size_t>(
        std::min(kBins - 1, static_cast<int>((v - lo) / (hi - lo) * kBins)))]++;
  }
  const int64_t top = *std::max_element(bins.begin(), bins.end());
  std::string svg = "<svg class=\"histogram\" width=\"480\" height=\"160\">";
  for (int b = 0; b < kBins; ++b) {
    const double height =
        120.0 * static_cast<double>(bins[static_cast<size_t>(b)]) / static_cast<double>(top);
    svg += "<rect x=\"" + std::to_string(20 + b * 22) + "\" y=\"" + num(130 - height, "%.1f") +
           "\" width=\"20\" height=\"" + num(height, "%.1f") + "\"><title>" +
           num(lo + (hi - lo) * b / kBins) + " - " + num(lo + (hi - lo) * (b + 1) / kBins) + ": " +
           std::to_string(bins[static_cast<size_t>(b)]) + " tensors</title></rect>";
  }
  svg += "<text x=\"20\" y=\"150\" class=\"axis\">" + num(lo) +
         "</text><text x=\"420\" y=\"150\" "
         "class=\"axis\">" +
         num(hi) + "</text></svg>";
  return svg;
}

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
.summary td{padding:2px 12px 2px 0}.box{border-left:4px solid #c33;background:#fdf3f3;padding:8px 12px}
.box.ok{border-color:#393;background:#f3fbf3}.chart,.histogram{border:1px solid #ddd;margin:6px 0;display:block}
.axis{font-size:11px;fill:#555}.limit{stroke:#c33;stroke-dasharray:6 4;stroke-width:1.5}
.trace{fill:none;stroke:#9ab;stroke-width:1}circle.pass{fill:#393}circle.fail{fill:#c33}circle.skip{fill:#999}
.histogram rect{fill:#58a}table.rows{border-collapse:collapse;font-size:12px}
table.rows th{cursor:pointer;background:#eee;position:sticky;top:0}table.rows td,table.rows th{border:1px solid #ddd;padding:2px 6px}
tr.fail td{background:#fdecec}tr.skip td{color:#888}
)";

constexpr const char* kScript = R"(
function sortBy(col){const t=document.getElementById('rows'),b=t.tBodies[0];
const rows=Array.from(b.rows);const dir=t.dataset.col==col&&t.dataset.dir=='asc'?'desc':'asc';
t.dataset.col=col;t.dataset.dir=dir;rows.sort((x,y)=>{const a=x.cells[col].textContent,c=y.cells[col].textContent;
const na=parseFloat(a),nc=parseFloat(c);let r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);
return dir=='asc'?r:-r;});rows.forEach(r=>b.appendChild(r));}
function filterRows(){const q=document.getElementById('filter').value.toLowerCase();
const f=document.getElementById('failedOnly').checked;let n=0;
for(const r of document.getElementById('rows').tBodies[0].rows){const show=(!f||r.classList.contains('fail'))&&
r.textContent.toLowerCase().includes(q);r.style.display=show?'':'none';if(show)n++;}
document.getElementById('shown').textContent=n;}
window.addEventListener('DOMContentLoaded',()=>{const m=location.hash.match(/sort=(\d+)/);
if(m)sortBy(parseInt(m[1]));});
)";

}  // namespace

void write_html_report(const std::string& path, const ResultAnalysis& a, const VerdictRules& rules,
                       const RunInfo& info) {
  const int64_t passed = a.count(Verdict::kPass), failed = a.count(Verdict::kFail),
                skipped = a.count(Verdict::kNotCompared);
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>dumpcmp "
      "report</title><style>";
  html += kStyle;
  html += "</style><script>";
  html += kScript;
  html += "</script></head><body>\n<h1>dumpcmp accuracy report</h1>\n<table class=\"summary\">";
  auto line = [&](const std::string& k, const std::string& v) {
    html += "<tr><td>" + html_escape(k) + "</td><td>" + v + "</td></tr>";
  };
  line("NPU dump (-m)", html_escape(info.my_path));
  line("ground truth (-g)", html_escape(info.golden_path));
  line("command", "<code>" + html_escape(info.command) + "</code>");
  line("result file", html_escape(info.result_csv));
  line("tensors", "<span id=\"count-total\">" + std::to_string(a.rows().size()) +
                      "</span>: <span id=\"count-pass\">" + std::to_string(passed) +
                      "</span> within tolerance, <span id=\"count-fail\">" +
                      std::to_string(failed) + "</span> outside, " + std::to_string(skipped) +
                      " not compared");
  line("time",
       num(info.seconds, "%.3f") + " s on the " + html_escape(info.backend) + " backend, " +
           num(static_cast<double>(info.bytes) / 1e6 / std::max(info.seconds, 1e-9), "%.1f") +
           " MB/s");
  html += "</table>\n<h2>First divergent operator</h2>\n";
  const DivergentOp first = a.first_divergent();
  if (!first.found) {
    html +=
        "<div class=\"box ok\" id=\"first-divergent\" data-index=\"none\">Every compared tensor is "
        "within tolerance.</div>";
  } else {
    html += "<div class=\"box\" id=\"first-divergent\" data-index=\"" +
            std::to_string(first.index) + "\" data-op=\"" + html_escape(first.op) + "\"><b>#" +
            std::to_string(first.index) + " " + html_escape(first.op) +
            "</b>: " + html_escape(first.why) + ". ";
    html +=
        first.inherited
            ? "Its inputs were already outside tolerance, and so were those of every failing op "
              "before it: the error comes in with the model's inputs (or an op that was not "
              "dumped)."
            : "Its inputs were still within tolerance, so the error is introduced by this op; "
              "later failures may only inherit it.";
    html += "</div>";
  }
  html += "\n<h2>Metrics along the network</h2>\n";
  for (size_t k = 0; k < a.metrics().size(); ++k) {
    for (const Limit& l : rules.limits("", "")) {
      if (l.metric != a.metrics()[k]) continue;
      html += metric_chart(a, k, l.value, l.metric == Metric::kCosineSimilarity) + "\n";
    }
  }
  html +=
      "<p class=\"axis\">Points are rows in table order (the worst of each group when there are "
      "more than 2,000); green within tolerance, red outside; the dashed line is the default "
      "limit (per-dtype and per-op limits may differ, see the table).</p>";
  html += "<h2>Worst tensors</h2><ol id=\"worst\">";
  for (const AnalysedRow* r : a.worst(10)) {
    html += "<li>#" + std::to_string(r->index) + " " + html_escape(r->tensor_index) + " (" +
            html_escape(r->dtype) + " " + html_escape(r->shape) + ")";
    for (size_t k = 0; k < a.metrics().size() && k < 3; ++k) {
      html += ", " + std::string(metric_name(a.metrics()[k])) + " " +
              html_escape(format_metric_cell(a.metrics()[k], r->cells[k]));
    }
    html += "</li>";
  }
  html += "</ol>";
  const std::string histogram = cosine_histogram(a);
  if (!histogram.empty()) {
    html += "<h2>Distribution of cosine similarity over the compared tensors</h2>" + histogram;
  }
  html +=
      "\n<h2>All rows</h2><p><input id=\"filter\" placeholder=\"filter\" oninput=\"filterRows()\"> "
      "<label><input type=\"checkbox\" id=\"failedOnly\" onchange=\"filterRows()\"> outside "
      "tolerance only</label> <span id=\"shown\">" +
      std::to_string(a.rows().size()) +
      "</span> shown</p>\n<table class=\"rows\" id=\"rows\"><thead><tr>";
  std::vector<std::string> columns = {"Index",    "OpType",      "NPUDump", "GroundTruth",
                                      "DataType", "TensorIndex", "Shape"};
  for (Metric m : a.metrics()) columns.emplace_back(metric_name(m));
  columns.insert(columns.end(), {"Verdict", "CompareFailReason"});
  for (size_t c = 0; c < columns.size(); ++c) {
    html +=
        "<th onclick=\"sortBy(" + std::to_string(c) + ")\">" + html_escape(columns[c]) + "</th>";
  }
  html += "</tr></thead><tbody>\n";
  for (const AnalysedRow& r : a.rows()) {
    html += "<tr class=\"" + std::string(verdict_class(r.verdict)) + "\"><td>" +
            std::to_string(r.index) + "</td><td>" + html_escape(r.op_type) + "</td><td>" +
            html_escape(r.npu_op) + "</td><td>" + html_escape(r.golden_op) + "</td><td>" +
            html_escape(r.dtype) + "</td><td>" + html_escape(r.tensor_index) + "</td><td>" +
            html_escape(r.shape) + "</td>";
    for (size_t k = 0; k < r.cells.size(); ++k) {
      html += "<td>" + html_escape(format_metric_cell(a.metrics()[k], r.cells[k])) + "</td>";
    }
    html += "<td title=\"" + html_escape(r.why) + "\">" + std::string(verdict_name(r.verdict)) +
            "</td><td>" + html_escape(r.reason) + "</td></tr>\n";
  }
  html += "</tbody></table>\n</body></html>\n";
  write_file_atomically(path, html);
}

}  // namespace dumpcmp
