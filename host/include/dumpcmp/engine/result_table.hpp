#pragma once
// The whole-network result table's columns and rows (spec/algorithms.md §4): which columns exist and
// how each kind of row is spelled.
#include <cstdint>
#include <string>
#include <vector>

#include "dumpcmp/metrics/metric.hpp"
#include "dumpcmp/metrics/metric_table.hpp"
#include "dumpcmp/report/result_row.hpp"

namespace dumpcmp {

inline constexpr const char* kNaNText = "NaN";

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

// Which optional columns the table has (spec/algorithms.md §4).
struct TableColumns {
  bool my_address = true;      // dropped when the -m side holds .npy files
  bool golden_address = true;  // dropped when the -g side holds .npy files
  bool op_sequence = false;    // -r / -s
  bool overflow = false;       // -overflow_detection
};

class ResultTable {
 public:
  // Address columns are dropped for a side whose directory holds .npy files.
  ResultTable(std::vector<Metric> metrics, bool my_address, bool golden_address);
  ResultTable(std::vector<Metric> metrics, const TableColumns& columns);

  std::vector<std::string> header() const;
  // A compared tensor: one cell per metric, reasons (preset ones first) joined with ','.
  ResultRow compared_row(const RowIdentity& id, const PairStats& stats, const PairContext& ctx,
                         const std::vector<std::string>& preset_reasons = {}) const;
  // A row whose metrics could not be computed: every metric "NaN".
  ResultRow failed_row(const RowIdentity& id, const std::vector<std::string>& reasons) const;
  const std::vector<Metric>& metrics() const { return metrics_; }

 private:
  std::vector<std::string> identity_cells(const RowIdentity& id) const;
  std::vector<Metric> metrics_;
  TableColumns columns_;
};

std::string join_reasons(const std::vector<std::string>& reasons);

}  // namespace dumpcmp
