#pragma once
#include <string>

#include "dumpcmp/report/result_row.hpp"

namespace dumpcmp {

// compare_vector.py's non-CSV result: cells joined by one space, the last column
// (CompareFailReason) dropped, LF line ends. Written to "<path>.partial" and renamed on commit.
class SpaceSeparatedWriter final : public ReportWriter {
 public:
  explicit SpaceSeparatedWriter(std::string path) : path_(std::move(path)) {}
  void begin(const std::vector<std::string>& header) override { append(header); }
  void write(const ResultRow& row) override { append(row.cells); }
  void commit() override;
  // Writes text to "<path>.partial" and renames it to path; throws Error naming the path.
  static void write_text_file(const std::string& path, const std::string& text);

 private:
  void append(const std::vector<std::string>& cells);
  std::string path_;
  std::string text_;
};

}  // namespace dumpcmp
