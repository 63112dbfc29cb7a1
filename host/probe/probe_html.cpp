#include "probe/probe_html.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/text.hpp"
#include "probe/probe_result.hpp"

namespace dumpcmp {
namespace {

// The columns the page leaves out of a row: the raw statistics, the stacks and the data files,
// which the CSV keeps.
bool shown(std::string_view column) {
  static const std::set<std::string_view> kLeftOut = {"NPU Requires_grad",
                                                      "Bench Requires_grad",
                                                      "NPU max",
                                                      "NPU min",
                                                      "NPU mean",
                                                      "NPU l2norm",
                                                      "Bench max",
                                                      "Bench min",
                                                      "Bench mean",
                                                      "Bench l2norm",
                                                      "NPU_Stack_Info",
                                                      "Data_name",
                                                      "Requires_grad Consistent"};
  return kLeftOut.count(column) == 0;
}

std::string cell(const std::string& text, const char* tag = "td") {
  return std::string("<") + tag + ">" + html_escape(text) + "</" + tag + ">";
}

// A pair's error rows, then its warning rows, up to kProbeHtmlRows.
std::string flagged_rows(const ProbeResultTable& table) {
  const auto result = static_cast<std::size_t>(
      std::find(table.header.begin(), table.header.end(), "Result") - table.header.begin());
  if (result == table.header.size()) return "";
  std::vector<std::size_t> columns;
  for (std::size_t c = 0; c < table.header.size(); ++c)
    if (shown(table.header[c])) columns.push_back(c);
  std::string html = "<table class=\"rows\">\n<tr>";
  for (const std::size_t c : columns) html += cell(table.header[c], "th");
  html += "</tr>\n";
  std::size_t listed = 0, flagged = 0;
  for (const char* verdict : {"error", "warning"}) {
    for (const std::vector<std::string>& row : table.rows) {
      if (row[result] != verdict) continue;
      ++flagged;
      if (listed == kProbeHtmlRows) continue;
      ++listed;
      html += std::string("<tr class=\"") + verdict + "\">";
      for (const std::size_t c : columns) html += cell(row[c]);
      html += "</tr>\n";
    }
  }
  html += "</table>\n";
  if (flagged == 0) return "<p>Every row passes.</p>\n";
  if (flagged > listed) {
    html += "<p><small>" + std::to_string(flagged - listed) +
            " more rows in error or warning: the result file lists them.</small></p>\n";
  }
  return html;
}

}  // namespace

void write_probe_html(const std::string& path, const ProbeRunOptions& options,
                      const ProbeRunResult& result) {
  int64_t rows = 0, errors = 0, warnings = 0;
  for (const ProbePairCounts& c : result.counts)
    rows += c.rows, errors += c.errors, warnings += c.warnings;
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dumpcmp: msprobe compare"
      "</title>\n<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;"
      "margin-bottom:1em}td,th{border:1px solid #bbb;padding:.3em .6em}table.rows td{font-size:"
      "90%}.pass{background:#c8e6c9}.warning{background:#ffe0b2}.error{background:#ffcdd2}"
      ".none{background:#e0e0e0}small{color:#555}</style></head><body>\n";
  html += "<h1>msprobe compare</h1>\n<p>NPU <code>" + html_escape(options.target_path) +
          "</code> against bench <code>" + html_escape(options.golden_path) +
          "</code>: " + std::to_string(result.counts.size()) + " pairs written, " +
          std::to_string(rows) + " rows, " + std::to_string(errors) + " errors, " +
          std::to_string(warnings) + " warnings (msprobe's Result).</p>\n";
  html +=
      "<table>\n<tr><th>pair</th><th>rows</th><th>matched</th><th>pass</th><th>warning</th>"
      "<th>error</th><th>first error</th></tr>\n";
  for (const ProbePairCounts& c : result.counts) {
    html += std::string("<tr class=\"") + worst_probe_result(c.errors, c.warnings) + "\">" +
            cell(c.pair.empty() ? "-" : c.pair) + cell(std::to_string(c.rows)) +
            cell(std::to_string(c.matched)) + cell(std::to_string(c.rows - c.warnings - c.errors)) +
            cell(std::to_string(c.warnings)) + cell(std::to_string(c.errors)) +
            cell(c.first_error) + "</tr>\n";
  }
  for (const ProbeUnwritten& u : result.unwritten) {
    html += "<tr class=\"none\">" + cell(u.pair.empty() ? "-" : u.pair) + "<td colspan=\"6\">" +
            html_escape((u.failed ? "failed: " : "no result: ") + u.message) + "</td></tr>\n";
  }
  html += "</table>\n<p>Result files:";
  for (const std::string& file : result.written) html += " <code>" + html_escape(file) + "</code>";
  html += "</p>\n";
  for (const ProbeResultTable& table : result.tables) {
    html += "<h2>" + html_escape(table.pair.empty() ? "rows" : table.pair) +
            ": errors and warnings</h2>\n" + flagged_rows(table);
  }
  html += "</body></html>\n";
  write_file_atomically(path, html);
}

}  // namespace dumpcmp
