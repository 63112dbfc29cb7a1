#pragma once
// One result row as the compare produces it: identifying cells, the metric values as numbers, the
// fail reason and the verdict. Sinks receive records in row order; only the CSV and text writers
// turn them into text (ResultTable::cells).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "math/error_distribution.hpp"
#include "metrics/metric_table.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

inline constexpr const char* kNaNText = "NaN";  // msaccucmp's "not computed" / "not known" cell

// The identifying cells of one row, before the metrics.
struct RowIdentity {
  int64_t index = 0;
  std::string op_type = kNaNText;
  std::string my_op, my_dtype = kNaNText, my_address = kNaNText;
  std::string golden_op, golden_dtype = kNaNText, golden_address = kNaNText;
  std::string tensor_index = kNaNText;
  std::string shape = kNaNText;
  int64_t op_sequence = 0;          // the fusion rule's op "id" (OpSequence column)
  std::string overflow = kNaNText;  // YES / NO / NaN (OverFlow column)
};

struct CompareRecord {
  int64_t row = 0;  // the row's id in its plan
  RowIdentity id;
  // One cell per table metric when the pair was compared; empty when it was not (every metric
  // "NaN").
  std::vector<MetricCell> metrics;
  // One text cell per custom column (-c), as the plug-in returned it; empty: every one "NaN".
  std::vector<std::string> custom_cells;
  // The error distributions (--quantiles), for a compared row of a table that has them.
  std::optional<PairQuantiles> quantiles;
  std::string fail_reason;  // CompareFailReason
  Verdict verdict = Verdict::kNotCompared;
  std::string verdict_why;  // the limit a failing row broke

  bool compared() const { return !metrics.empty(); }
  // Metric k of the table, or a not-computed cell for a row that was not compared.
  const MetricCell& metric(std::size_t k) const {
    static const MetricCell kNotComputed;
    return k < metrics.size() ? metrics[k] : kNotComputed;
  }
};

class ResultTable;

// Receives the result table: begin once, records in row order, then commit (or nothing, on
// failure). Sinks never see backends.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void begin(const ResultTable& table) = 0;
  virtual void write(const CompareRecord& record) = 0;
  virtual void commit() = 0;  // makes the result visible under its final name
};

}  // namespace dumpcmp
