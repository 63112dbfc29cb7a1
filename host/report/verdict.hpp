#pragma once
// Pass / fail per result row: thresholds per metric, tightened or loosened per dtype, overridable
// per op-name pattern (docs/verdicts.md). msaccucmp has no verdicts; the defaults are msit's
// IsPrecisionError limits.
#include <optional>
#include <string>
#include <vector>

#include "metrics/metric.hpp"
#include "metrics/metric_table.hpp"

namespace dumpcmp {

struct CompareRecord;

enum class Verdict { kPass, kFail, kNotCompared };
std::string_view verdict_name(Verdict v);  // "pass", "fail", "not compared"

// A limit: CosineSimilarity must be >= value; every other metric <= value.
struct Limit {
  Metric metric = Metric::kCosineSimilarity;
  double value = 0;
};

class VerdictRules {
 public:
  // msit's limits (cosine >= 0.99, RED <= 0.05, KLD <= 0.005, RMSE <= 1, MeanRE <= 1) with the
  // per-dtype adjustments of docs/verdicts.md.
  VerdictRules();
  // The same with these overrides (add_override), in order: --threshold's list.
  explicit VerdictRules(const std::vector<std::string>& overrides);
  // "[PATTERN:]Metric=VALUE": Metric is a name or an alias (Cosine, MaxAE, ARE, RED, KLD, SD, MAE,
  // RMSE, MaxRE, MeanRE); PATTERN is a glob on the NPU op name. Later rules win. Throws
  // Error(kUsage) for a malformed rule.
  void add_override(const std::string& rule);

  // The limits that apply to one row.
  std::vector<Limit> limits(const std::string& op_name, const std::string& dtype) const;

  // `cells` are the metric cells of a row in `metrics` order, judged on the computed doubles.
  // Not-computed cells are skipped; a row with none computed is not compared; NaN on a limited
  // metric fails. StandardDeviation has no single value and is never limited.
  Verdict judge(const std::string& op_name, const std::string& dtype,
                const std::vector<Metric>& metrics, const std::vector<MetricCell>& cells,
                std::string* why = nullptr) const;
  // Sets the record's verdict and verdict_why (NPU op name and dtype pick the limits).
  void judge(const std::vector<Metric>& metrics, CompareRecord& record) const;

 private:
  struct Override {
    std::string pattern;  // empty: every op
    Limit limit;
  };
  std::vector<Override> overrides_;
};

// The metric a name or alias stands for.
std::optional<Metric> metric_from_name(const std::string& name);

}  // namespace dumpcmp
