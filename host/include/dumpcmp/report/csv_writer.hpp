#pragma once
#include <cstdio>
#include <string>

#include "dumpcmp/report/result_row.hpp"

namespace dumpcmp {

// msaccucmp-compatible CSV: Python csv.writer dialect (QUOTE_MINIMAL, CRLF). Rows stream into
// "<path>.partial", renamed to <path> on commit, so an interrupted run never leaves a half file
// under the final name.
class CsvWriter final : public ReportWriter {
 public:
  explicit CsvWriter(std::string path);
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void begin(const std::vector<std::string>& header) override;
  void write(const ResultRow& row) override;
  void commit() override;
  const std::string& path() const { return path_; }

 private:
  void write_cells(const std::vector<std::string>& cells);
  std::string path_;
  std::string partial_path_;
  std::FILE* file_ = nullptr;
};

// One CSV field as Python's csv module writes it with QUOTE_MINIMAL.
std::string csv_quote(const std::string& cell);
// msaccucmp's CSV-injection guard, in its 'replace' form: a non-numeric cell that starts with
// = + - % @ (or their full-width forms), or has ';' before one, gets a leading space.
std::string csv_defuse(const std::string& cell);

}  // namespace dumpcmp
