#pragma once
#include <string>
#include <vector>

#include "report/record.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {

// compare_vector.py's non-CSV result: cells joined by one space, the last column
// (CompareFailReason) dropped, LF line ends. Written atomically on commit.
class SpaceSeparatedSink final : public RecordSink {
 public:
  explicit SpaceSeparatedSink(std::string path) : path_(std::move(path)) {}
  void begin(const ResultTable& table) override;
  void write(const CompareRecord& record) override { append(table_->cells(record)); }
  void commit() override;

 private:
  void append(const std::vector<std::string>& cells);
  std::string path_;
  std::string text_;
  const ResultTable* table_ = nullptr;
};

}  // namespace dumpcmp
