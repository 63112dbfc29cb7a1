#pragma once
// The whole-network result table (docs/algorithms.md §4): which columns exist, and how a record is
// spelled as msaccucmp spells its cells. The CSV and space-separated writers are its only users
// for text.
#include <string>
#include <vector>

#include "metrics/metric.hpp"
#include "metrics/metric_table.hpp"
#include "report/record.hpp"

namespace dumpcmp {

// Which optional columns the table has (docs/algorithms.md §4).
struct TableColumns {
  bool my_address = true;      // dropped when the -m side holds .npy files
  bool golden_address = true;  // dropped when the -g side holds .npy files
  bool op_sequence = false;    // -r / -s
  bool overflow = false;       // -overflow_detection
  bool quantiles = false;      // --quantiles: the error distributions' columns, last
  // Custom algorithms' columns (-c), placed among the metrics as -alg named them.
  std::vector<CustomColumn> custom;
};

class ResultTable {
 public:
  ResultTable(std::vector<Metric> metrics, const TableColumns& columns);

  std::vector<std::string> header() const;
  // The record's cells in header order, as msaccucmp prints them.
  std::vector<std::string> cells(const CompareRecord& record) const;
  const std::vector<Metric>& metrics() const { return metrics_; }
  const TableColumns& columns() const { return columns_; }

 private:
  std::vector<Metric> metrics_;
  TableColumns columns_;
};

// A metric cell as msaccucmp prints it: "0.993999", "nan", "NaN" (not computed), "1.0", and
// "(m;s),(m;s)" with three decimals for StandardDeviation.
std::string format_metric_cell(Metric m, const MetricCell& cell);

// '{:.6f}' as Python prints it: NaN is "nan" (never "-nan"), infinities "inf" / "-inf".
std::string format_fixed6(double v);

// A quantile cell (--quantiles): the double's shortest round-trip text ("1.1920928955078125e-07");
// "NaN" when there is none.
std::string format_quantile(double v);

// CompareFailReason: the non-empty reasons joined with ','.
std::string join_reasons(const std::vector<std::string>& reasons);

}  // namespace dumpcmp
