#include "probe/probe_steps_report.hpp"

#include <algorithm>
#include <map>

#include "core/atomic_file.hpp"
#include "core/text.hpp"
#include "probe/probe_result.hpp"
#include "report/csv_writer.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace {

bool counted(const ProbeStepPair& p) { return p.status == "compared"; }

// The cell's colour: red with an error row, amber with a warning row, green when every row passed,
// grey without a result.
const char* verdict_class(const ProbeStepPair& p) {
  return counted(p) ? worst_probe_result(p.errors, p.warnings) : "none";
}

}  // namespace

void write_probe_steps_summary(const std::string& path, const std::vector<ProbeStepPair>& pairs) {
  std::string text = csv_row({"Step", "Pair", "Status", "Rows", "Matched", "Pass", "Warning",
                              "Error", "FirstError", "ResultFile", "Message"});
  for (const ProbeStepPair& p : pairs) {
    const auto count = [&](int64_t n) { return counted(p) ? std::to_string(n) : std::string(); };
    // Op names, paths and messages come from the dumps: the tree summary's injection guard.
    text += csv_defused_row({p.step, p.pair, p.status, count(p.rows), count(p.matched),
                             count(p.rows - p.warnings - p.errors), count(p.warnings),
                             count(p.errors), p.first_error, p.result_file, p.message});
  }
  write_file_atomically(path, text);
}

void write_probe_steps_index(const std::string& path, const std::string& npu_root,
                             const std::string& bench_root,
                             const std::vector<ProbeStepPair>& pairs) {
  std::vector<std::string> steps, names;
  std::map<std::pair<std::string, std::string>, const ProbeStepPair*> cell;
  int64_t rows = 0, errors = 0, warnings = 0;
  for (const ProbeStepPair& p : pairs) {
    if (std::find(steps.begin(), steps.end(), p.step) == steps.end()) steps.push_back(p.step);
    if (std::find(names.begin(), names.end(), p.pair) == names.end()) names.push_back(p.pair);
    cell[{p.pair, p.step}] = &p;
    if (counted(p)) rows += p.rows, errors += p.errors, warnings += p.warnings;
  }
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return natural_less(a, b); });

  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dumpcmp: msprobe run</title>\n"
      "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
      "td,th{border:1px solid #bbb;padding:.3em .6em;text-align:center}"
      "td.pass{background:#c8e6c9}td.warning{background:#ffe0b2}td.error{background:#ffcdd2}"
      "td.none{background:#e0e0e0}td a{color:inherit}small{color:#555}</style></head><body>\n";
  html += "<h1>msprobe compare over steps</h1>\n<p>NPU <code>" + html_escape(npu_root) +
          "</code> against bench <code>" + html_escape(bench_root) +
          "</code>: " + std::to_string(steps.size()) + " steps, " + std::to_string(rows) +
          " rows, " + std::to_string(errors) + " errors, " + std::to_string(warnings) +
          " warnings (msprobe's Result). Each cell: errors / warnings / rows; its title names the "
          "first row in error.</p>\n<table>\n<tr><th>pair \\ step</th>";
  for (const std::string& step : steps) html += "<th>" + html_escape(step) + "</th>";
  html += "</tr>\n";
  for (const std::string& name : names) {
    html += "<tr><th>" + html_escape(name.empty() ? "-" : name) + "</th>";
    for (const std::string& step : steps) {
      const auto found = cell.find({name, step});
      if (found == cell.end()) {
        html += "<td></td>";
        continue;
      }
      const ProbeStepPair& p = *found->second;
      const std::string title = p.first_error.empty() ? p.message : "first error: " + p.first_error;
      std::string body = counted(p)
                             ? std::to_string(p.errors) + " / " + std::to_string(p.warnings) +
                                   " / " + std::to_string(p.rows)
                             : p.status;
      body = html_escape(body);
      if (!p.result_file.empty())
        body = "<a href=\"" + html_escape(p.result_file) + "\">" + body + "</a>";
      html += "<td class=\"" + std::string(verdict_class(p)) + "\" title=\"" + html_escape(title) +
              "\">" + body + "</td>";
    }
    html += "</tr>\n";
  }
  html += "</table>\n<p><small>summary.csv lists every cell.</small></p>\n</body></html>\n";
  write_file_atomically(path, html);
}

}  // namespace dumpcmp
