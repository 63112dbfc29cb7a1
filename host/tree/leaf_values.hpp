#pragma once
// The metric values of a leaf's compared rows, as numbers: what the run's index.html charts, kept
// from the records (never read back from the CSV's printed decimals) and, for --resume, in the
// run's journal.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "report/record.hpp"

namespace dumpcmp {

struct LeafValues {
  std::vector<std::string> metrics;  // metric names, in the table's order (no StandardDeviation)
  std::vector<std::string> tensors;  // one per row: its TensorIndex, else its op
  std::vector<double> values;        // tensors x metrics, row-major; NaN where not computed

  double at(std::size_t tensor, std::size_t metric) const {
    return values[tensor * metrics.size() + metric];
  }
  // The column of a metric, or -1.
  int metric_column(const std::string& name) const;
};

// Collects a leaf's values from its records.
class LeafValuesSink : public RecordSink {
 public:
  void begin(const ResultTable& table) override;
  void write(const CompareRecord& record) override;
  void commit() override {}
  std::shared_ptr<const LeafValues> take() { return std::move(values_); }

 private:
  std::vector<std::size_t> columns_;  // the table's metric index of each kept metric
  std::shared_ptr<LeafValues> values_ = std::make_shared<LeafValues>();
};

// Doubles as base64 of their little-endian bytes (exact, about 11 characters each), and back;
// false when the text is not such a list.
std::string encode_doubles(const std::vector<double>& values);
bool decode_doubles(std::string_view text, std::vector<double>& values);

}  // namespace dumpcmp
