#pragma once
#include <vector>

#include "dumpcmp/report/result_row.hpp"

namespace dumpcmp {

// Hands every row to several writers (the CSV, and the HDF5 file when asked for).
class TeeWriter final : public ReportWriter {
 public:
  explicit TeeWriter(std::vector<ReportWriter*> writers) : writers_(std::move(writers)) {}
  void begin(const std::vector<std::string>& header) override {
    for (ReportWriter* w : writers_) w->begin(header);
  }
  void write(const ResultRow& row) override {
    for (ReportWriter* w : writers_) w->write(row);
  }
  void commit() override {
    for (ReportWriter* w : writers_) w->commit();
  }

 private:
  std::vector<ReportWriter*> writers_;
};

}  // namespace dumpcmp
