#pragma once
// What a finished result table says: each row's verdict, the first divergent op (the first op
// whose outputs fail while its inputs pass: error introduced there, not inherited), the worst
// tensors, counts. Rows are recorded on their way to the real writer.
#include <cstdint>
#include <string>
#include <vector>

#include "dumpcmp/metrics/metric.hpp"
#include "dumpcmp/report/result_row.hpp"
#include "dumpcmp/report/verdict.hpp"

namespace dumpcmp {

struct AnalysedRow {
  int64_t index = 0;
  std::string op_type, npu_op, golden_op, dtype, tensor_index, shape, reason;
  std::vector<std::string> cells;  // the metric cells, in metrics() order
  Verdict verdict = Verdict::kNotCompared;
  std::string why;  // the limit a failing row broke
  bool is_input = false;
};

struct DivergentOp {
  bool found = false;
  bool inherited = false;  // the first failing op's own inputs already failed
  int64_t index = 0;
  std::string op, why;
};

class ResultAnalysis final : public ReportWriter {
 public:
  ResultAnalysis(ReportWriter& inner, const VerdictRules& rules) : inner_(inner), rules_(rules) {}
  void begin(const std::vector<std::string>& header) override;
  void write(const ResultRow& row) override;
  void commit() override { inner_.commit(); }

  const std::vector<AnalysedRow>& rows() const { return rows_; }
  const std::vector<Metric>& metrics() const { return metrics_; }
  int64_t count(Verdict v) const;
  DivergentOp first_divergent() const;
  // Up to n compared rows, worst first: lowest cosine (NaN first), else largest first metric.
  std::vector<const AnalysedRow*> worst(size_t n) const;

 private:
  ReportWriter& inner_;
  const VerdictRules& rules_;
  std::vector<Metric> metrics_;
  std::vector<int> metric_cols_;
  int index_col_ = -1, type_col_ = -1, npu_col_ = -1, golden_col_ = -1, dtype_col_ = -1,
      tensor_col_ = -1, shape_col_ = -1, reason_col_ = -1;
  std::vector<AnalysedRow> rows_;
};

}  // namespace dumpcmp
