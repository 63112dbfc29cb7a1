#pragma once
// What a finished result table says: each row's verdict, the first divergent op (the first op
// whose outputs fail while its inputs pass: error introduced there, not inherited), the worst
// tensors, counts. A sink: it keeps the records' typed fields (verdicts are judged before, once).
#include <cstdint>
#include <string>
#include <vector>

#include "metrics/metric.hpp"
#include "report/record.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

struct AnalysedRow {
  int64_t index = 0;
  std::string op_type, npu_op, golden_op, dtype, tensor_index, shape, reason;
  std::vector<MetricCell> cells;  // the metric cells, in metrics() order
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

class ResultAnalysis final : public RecordSink {
 public:
  void begin(const ResultTable& table) override;
  void write(const CompareRecord& record) override;
  void commit() override {}

  const std::vector<AnalysedRow>& rows() const { return rows_; }
  const std::vector<Metric>& metrics() const { return metrics_; }
  int64_t count(Verdict v) const;
  DivergentOp first_divergent() const;
  // Up to n compared rows, worst first: lowest cosine (NaN first), else largest first metric.
  std::vector<const AnalysedRow*> worst(size_t n) const;

 private:
  std::vector<Metric> metrics_;
  std::vector<AnalysedRow> rows_;
};

}  // namespace dumpcmp
