#pragma once
// msaccucmp's -advisor (docs/algorithms.md §7, advisor/*.py): reads the finished result table
// and names the first problem: an fp16 overflow, an inconsistent model input, or where accuracy
// first drops below cosine 0.99. A sink: it keeps what it needs of each record.
#include <string>
#include <vector>

#include "report/record.hpp"

namespace dumpcmp {

struct Advice {
  std::string detection_type = "NA";
  std::string operator_index = "NA";
  std::string expert_advice = "NA";
  // "Detection Type: ...", "Operator Index: ...", "Expert Advice: ..."
  std::vector<std::string> lines() const;
};

class AdvisorSink final : public RecordSink {
 public:
  void begin(const ResultTable& table) override;
  void write(const CompareRecord& record) override;
  void commit() override {}

  // The first matching detection, in msaccucmp's order; input_nodes are the model's Data ops.
  Advice advise(const std::vector<std::string>& input_nodes) const;

 private:
  struct Row {
    int64_t index = 0;
    std::string npu_dump, overflow;
    double cosine = 0;
    bool has_cosine = false;  // pandas drops NaN cosines
  };
  bool has_overflow_ = false;
  int cosine_k_ = -1;  // the cosine's position among the table's metrics
  std::vector<Row> rows_;
};

// Writes <dir>/advisor_summary.txt (the three lines, LF) through a .partial file.
void write_advisor_summary(const std::string& dir, const Advice& advice);

}  // namespace dumpcmp
