#include "dumpcmp/report/advisor.hpp"

#include <cmath>
#include <cstdlib>

#include "dumpcmp/report/space_separated_writer.hpp"

namespace dumpcmp {
namespace {

constexpr double kAccuracyThreshold = 0.99;

constexpr const char* kOverflowAdvice =
    "Float16 data overflow occurs. Rectify the fault and perform comparison again.";
constexpr const char* kInputAdvice =
    "The input data of NPUDump is inconsistent with that of GroundTruth. Use the same data or "
    "check the data preprocessing process.";
constexpr const char* kConsistentAdvice =
    "All data in the comparison result meets the accuracy requirements. If data accuracy of the "
    "model is still not up to standard in practical application, please check the "
    "post-processing process of model outputs.";
constexpr const char* kProblemAdvice =
    "The accuracy of some tensors is low, resulting in an unqualified final accuracy. This may be "
    "caused by quantization. Calibrate the data or contact Huawei for further diagnosis. ";
constexpr const char* kDeviationAdvice =
    "The accuracy of some tensors is low, while the final accuracy is qualified. This may be "
    "caused by Ascend internal optimization. Ignore or contact Huawei for further diagnosis. ";

// pandas.read_csv's reading of a cosine cell: a number, or NaN ("NaN", "nan", empty).
bool parse_cosine(const std::string& cell, double& value) {
  if (cell.empty()) return false;
  char* end = nullptr;
  value = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size() && !std::isnan(value);
}

int column(const std::vector<std::string>& header, const char* name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::vector<std::string> Advice::lines() const {
  return {"Detection Type: " + detection_type, "Operator Index: " + operator_index,
          "Expert Advice: " + expert_advice};
}

void AdvisorTap::begin(const std::vector<std::string>& header) {
  index_col_ = column(header, "Index");
  npu_col_ = column(header, "NPUDump");
  overflow_col_ = column(header, "OverFlow");
  cosine_col_ = column(header, "CosineSimilarity");
  inner_.begin(header);
}

void AdvisorTap::write(const ResultRow& row) {
  auto cell = [&](int col) {
    return col >= 0 && static_cast<size_t>(col) < row.cells.size()
               ? row.cells[static_cast<size_t>(col)]
               : std::string();
  };
  Row r{cell(index_col_), cell(npu_col_), cell(overflow_col_)};
  r.has_cosine = parse_cosine(cell(cosine_col_), r.cosine);
  rows_.push_back(std::move(r));
  inner_.write(row);
}

Advice AdvisorTap::advise(const std::vector<std::string>& input_nodes) const {
  if (overflow_col_ >= 0) {
    for (const Row& r : rows_) {
      if (r.overflow == "YES") return {"FP16 Overflow", r.index, kOverflowAdvice};
    }
  }
  if (cosine_col_ < 0) return {};
  std::vector<const Row*> with_cosine;
  for (const Row& r : rows_) {
    if (r.has_cosine) with_cosine.push_back(&r);
  }
  if (with_cosine.empty()) return {};
  for (const std::string& node : input_nodes) {
    for (const Row* r : with_cosine) {
      if (r->cosine < kAccuracyThreshold && r->npu_dump == node) {
        return {"Input Inconsistent", r->index, kInputAdvice};
      }
    }
  }
  for (const Row* r : with_cosine) {
    if (r->cosine < kAccuracyThreshold) {
      const bool last_low = with_cosine.back()->cosine < kAccuracyThreshold;
      return {"Global Consistency", r->index, last_low ? kProblemAdvice : kDeviationAdvice};
    }
  }
  return {"Global Consistency", "NA", kConsistentAdvice};
}

void write_advisor_summary(const std::string& dir, const Advice& advice) {
  std::string text;
  for (const std::string& line : advice.lines()) text += line + "\n";
  SpaceSeparatedWriter::write_text_file(dir + "/advisor_summary.txt", text);
}

}  // namespace dumpcmp
