#pragma once
#include <string>
#include <vector>

namespace dumpcmp {

// One row of a whole-network result, cells in header order. Writers never see backends.
struct ResultRow {
  std::vector<std::string> cells;
};

// Receives the result table: begin once, rows in order, then commit (or nothing, on failure).
class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  virtual void begin(const std::vector<std::string>& header) = 0;
  virtual void write(const ResultRow& row) = 0;
  virtual void commit() = 0;  // makes the result visible under its final name
};

}  // namespace dumpcmp
