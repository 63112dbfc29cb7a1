#include "dumpcmp/report/result_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace dumpcmp {

void ResultAnalysis::begin(const std::vector<std::string>& header) {
  auto first = [&](const char* name) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return static_cast<int>(i);
    }
    return -1;
  };
  index_col_ = first("Index");
  type_col_ = first("OpType");
  npu_col_ = first("NPUDump");
  golden_col_ = first("GroundTruth");
  dtype_col_ = first("DataType");
  tensor_col_ = first("TensorIndex");
  shape_col_ = first("Shape");
  reason_col_ = first("CompareFailReason");
  for (size_t i = 0; i < header.size(); ++i) {
    const std::optional<Metric> m = metric_from_name(header[i]);
    if (m && header[i] == metric_name(*m)) {
      metrics_.push_back(*m);
      metric_cols_.push_back(static_cast<int>(i));
    }
  }
  inner_.begin(header);
}

void ResultAnalysis::write(const ResultRow& row) {
  auto cell = [&](int col) {
    return col >= 0 && static_cast<size_t>(col) < row.cells.size()
               ? row.cells[static_cast<size_t>(col)]
               : std::string();
  };
  AnalysedRow r;
  r.index = std::strtoll(cell(index_col_).c_str(), nullptr, 10);
  r.op_type = cell(type_col_);
  r.npu_op = cell(npu_col_);
  r.golden_op = cell(golden_col_);
  r.dtype = cell(dtype_col_);
  r.tensor_index = cell(tensor_col_);
  r.shape = cell(shape_col_);
  r.reason = cell(reason_col_);
  r.is_input = r.tensor_index.find(":input:") != std::string::npos;
  for (int col : metric_cols_) r.cells.push_back(cell(col));
  r.verdict = rules_.judge(r.npu_op, r.dtype, metrics_, r.cells, &r.why);
  rows_.push_back(std::move(r));
  inner_.write(row);
}

int64_t ResultAnalysis::count(Verdict v) const {
  return std::count_if(rows_.begin(), rows_.end(),
                       [v](const AnalysedRow& r) { return r.verdict == v; });
}

DivergentOp ResultAnalysis::first_divergent() const {
  // Per op (Index): do its outputs fail, do its inputs?
  struct OpState {
    bool output_fail = false, input_fail = false;
    const AnalysedRow* failing = nullptr;
  };
  std::map<int64_t, OpState> ops;
  for (const AnalysedRow& r : rows_) {
    OpState& s = ops[r.index];
    if (r.verdict != Verdict::kFail) continue;
    if (r.is_input) {
      s.input_fail = true;
    } else {
      s.output_fail = true;
      if (!s.failing) s.failing = &r;
    }
  }
  DivergentOp first;
  for (const auto& [index, s] : ops) {
    if (!s.output_fail) continue;
    if (!first.found) {  // the first failing op, in case every one inherits its error
      first = {true, s.input_fail, index, s.failing->npu_op,
               s.failing->tensor_index + ": " + s.failing->why};
    }
    if (!s.input_fail) {
      return {true, false, index, s.failing->npu_op,
              s.failing->tensor_index + ": " + s.failing->why};
    }
  }
  return first;
}

std::vector<const AnalysedRow*> ResultAnalysis::worst(size_t n) const {
  std::vector<const AnalysedRow*> compared;
  for (const AnalysedRow& r : rows_) {
    if (r.verdict != Verdict::kNotCompared) compared.push_back(&r);
  }
  if (metrics_.empty()) return {};
  const auto cosine = std::find(metrics_.begin(), metrics_.end(), Metric::kCosineSimilarity);
  const size_t k = cosine != metrics_.end() ? static_cast<size_t>(cosine - metrics_.begin()) : 0;
  const bool lower_is_worse = cosine != metrics_.end();
  auto badness = [&](const AnalysedRow* r) -> double {
    if (k >= r->cells.size() || r->cells[k] == "NaN") return -INFINITY;
    const double v = std::strtod(r->cells[k].c_str(), nullptr);
    if (std::isnan(v)) return INFINITY;
    return lower_is_worse ? -v : v;
  };
  std::stable_sort(
      compared.begin(), compared.end(),
      [&](const AnalysedRow* a, const AnalysedRow* b) { return badness(a) > badness(b); });
  if (compared.size() > n) compared.resize(n);
  return compared;
}

}  // namespace dumpcmp
