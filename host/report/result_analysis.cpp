#include "report/result_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/result_table.hpp"

namespace dumpcmp {

void ResultAnalysis::begin(const ResultTable& table) { metrics_ = table.metrics(); }

void ResultAnalysis::write(const CompareRecord& record) {
  AnalysedRow r;
  const RowIdentity& id = record.id;
  r.index = id.index;
  r.op_type = id.op_type;
  r.npu_op = id.my_op;
  r.golden_op = id.golden_op;
  r.dtype = id.my_dtype;
  r.tensor_index = id.tensor_index;
  r.shape = id.shape;
  r.reason = record.fail_reason;
  r.is_input = r.tensor_index.find(":input:") != std::string::npos;
  for (std::size_t k = 0; k < metrics_.size(); ++k) r.cells.push_back(record.metric(k));
  r.verdict = record.verdict;
  r.why = record.verdict_why;
  rows_.push_back(std::move(r));
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
    if (k >= r->cells.size() || !r->cells[k].computed()) return -INFINITY;
    const double v = r->cells[k].number();
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
