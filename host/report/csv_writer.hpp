#pragma once
#include <cstdio>
#include <string>

#include "core/atomic_file.hpp"
#include "report/record.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {

// msaccucmp-compatible CSV: Python csv.writer dialect (QUOTE_MINIMAL, CRLF), through an AtomicFile
// (an interrupted run never leaves a half file under the final name).
class CsvWriter {
 public:
  explicit CsvWriter(std::string path) : file_(std::move(path)) {}
  void write_row(const std::vector<std::string>& cells);
  void commit() { file_.commit(); }
  const std::string& path() const { return file_.path(); }

 private:
  AtomicFile file_;
};

// msaccucmp's name for a compare's result table: "<prefix>result_<YYYYmmddHHMMSS>.csv" (prefix: the
// directory with its slash, and a tree leaf's stem).
std::string result_csv_name(const std::string& prefix);

// The result table as msaccucmp's result_<ts>.csv.
class CsvSink final : public RecordSink {
 public:
  explicit CsvSink(std::string path) : csv_(std::move(path)) {}
  void begin(const ResultTable& table) override;
  void write(const CompareRecord& record) override { csv_.write_row(table_->cells(record)); }
  void commit() override { csv_.commit(); }
  const std::string& path() const { return csv_.path(); }

 private:
  CsvWriter csv_;
  const ResultTable* table_ = nullptr;
};

// One CSV field as Python's csv module writes it with QUOTE_MINIMAL.
std::string csv_quote(const std::string& cell);
// The cells as one such line, ended by '\n' (pandas' to_csv), each as it is.
std::string csv_row(const std::vector<std::string>& cells);
// msaccucmp's CSV-injection guard, in its 'replace' form: a non-numeric cell that starts with
// = + - % @ (or their full-width forms), or has ';' before one, gets a leading space.
std::string csv_defuse(const std::string& cell);
// csv_row of the cells each behind csv_defuse: summaries whose cells come from the dumps.
std::string csv_defused_row(std::vector<std::string> cells);

}  // namespace dumpcmp
