#pragma once
// msaccucmp's -advisor (spec/algorithms.md §7, advisor/*.py): reads the finished result table
// and names the first problem: an fp16 overflow, an inconsistent model input, or where accuracy
// first drops below cosine 0.99. Rows are recorded on their way to the real writer.
#include <string>
#include <vector>

#include "dumpcmp/report/result_row.hpp"

namespace dumpcmp {

struct Advice {
  std::string detection_type = "NA";
  std::string operator_index = "NA";
  std::string expert_advice = "NA";
  // "Detection Type: ...", "Operator Index: ...", "Expert Advice: ..."
  std::vector<std::string> lines() const;
};

class AdvisorTap final : public ReportWriter {
 public:
  explicit AdvisorTap(ReportWriter& inner) : inner_(inner) {}
  void begin(const std::vector<std::string>& header) override;
  void write(const ResultRow& row) override;
  void commit() override { inner_.commit(); }

  // The first matching detection, in msaccucmp's order; input_nodes are the model's Data ops.
  Advice advise(const std::vector<std::string>& input_nodes) const;

 private:
  struct Row {
    std::string index, npu_dump, overflow;
    double cosine = 0;
    bool has_cosine = false;  // pandas drops NaN cosines
  };
  ReportWriter& inner_;
  int index_col_ = -1, npu_col_ = -1, overflow_col_ = -1, cosine_col_ = -1;
  std::vector<Row> rows_;
};

// Writes <dir>/advisor_summary.txt (the three lines, LF) through a .partial file.
void write_advisor_summary(const std::string& dir, const Advice& advice);

}  // namespace dumpcmp
