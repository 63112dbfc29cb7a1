#include "report/advisor.hpp"

#include <algorithm>
#include <cmath>

#include "core/atomic_file.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {
namespace {

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

// msaccucmp's advisor reads the printed CSV, where a cosine shows with six decimals: it is below
// "0.990000" exactly when the double is below the rounding midpoint 0.9899995.
bool low_accuracy(double cosine) { return static_cast<long double>(cosine) < 0.9899995L; }

}  // namespace

std::vector<std::string> Advice::lines() const {
  return {"Detection Type: " + detection_type, "Operator Index: " + operator_index,
          "Expert Advice: " + expert_advice};
}

void AdvisorSink::begin(const ResultTable& table) {
  has_overflow_ = table.columns().overflow;
  const auto& metrics = table.metrics();
  const auto it = std::find(metrics.begin(), metrics.end(), Metric::kCosineSimilarity);
  cosine_k_ = it == metrics.end() ? -1 : static_cast<int>(it - metrics.begin());
}

void AdvisorSink::write(const CompareRecord& record) {
  Row r{record.id.index, record.id.my_op, record.id.overflow};
  if (cosine_k_ >= 0) {
    // pandas reads "NaN" and "nan" alike as a missing value.
    r.cosine = record.metric(static_cast<std::size_t>(cosine_k_)).number();
    r.has_cosine = !std::isnan(r.cosine);
  }
  rows_.push_back(std::move(r));
}

Advice AdvisorSink::advise(const std::vector<std::string>& input_nodes) const {
  if (has_overflow_) {
    for (const Row& r : rows_) {
      if (r.overflow == "YES") return {"FP16 Overflow", std::to_string(r.index), kOverflowAdvice};
    }
  }
  if (cosine_k_ < 0) return {};
  std::vector<const Row*> with_cosine;
  for (const Row& r : rows_) {
    if (r.has_cosine) with_cosine.push_back(&r);
  }
  if (with_cosine.empty()) return {};
  for (const std::string& node : input_nodes) {
    for (const Row* r : with_cosine) {
      if (low_accuracy(r->cosine) && r->npu_dump == node) {
        return {"Input Inconsistent", std::to_string(r->index), kInputAdvice};
      }
    }
  }
  for (const Row* r : with_cosine) {
    if (low_accuracy(r->cosine)) {
      const bool last_low = low_accuracy(with_cosine.back()->cosine);
      return {"Global Consistency", std::to_string(r->index),
              last_low ? kProblemAdvice : kDeviationAdvice};
    }
  }
  return {"Global Consistency", "NA", kConsistentAdvice};
}

void write_advisor_summary(const std::string& dir, const Advice& advice) {
  std::string text;
  for (const std::string& line : advice.lines()) text += line + "\n";
  write_file_atomically(dir + "/advisor_summary.txt", text);
}

}  // namespace dumpcmp
