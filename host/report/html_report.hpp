#pragma once
// `--html FILE`: one self-contained page (no network, no external scripts or fonts) with the run
// summary, the first divergent op explained, an SVG chart of each thresholded metric along the op
// order with its limit drawn, the worst tensors, the distribution of cosine similarity, and a
// sortable, filterable table of every row.
#include <cstdint>
#include <string>

#include "core/text.hpp"
#include "report/result_analysis.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

struct RunInfo {
  std::string my_path, golden_path, command, backend, result_csv;
  double seconds = 0;
  uint64_t bytes = 0;
};

// Written to FILE.partial and renamed; throws Error naming the file when it cannot be written.
void write_html_report(const std::string& path, const ResultAnalysis& analysis,
                       const VerdictRules& rules, const RunInfo& info);

}  // namespace dumpcmp
