#include "report/verdict.hpp"

#include <fnmatch.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/error.hpp"
#include "report/record.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {
namespace {

struct Alias {
  const char* name;
  Metric metric;
};
constexpr Alias kAliases[] = {
    {"Cosine", Metric::kCosineSimilarity},       {"MaxAE", Metric::kMaxAbsoluteError},
    {"ARE", Metric::kAccumulatedRelativeError},  {"RED", Metric::kRelativeEuclideanDistance},
    {"KLD", Metric::kKullbackLeiblerDivergence}, {"SD", Metric::kStandardDeviation},
    {"MAE", Metric::kMeanAbsoluteError},         {"RMSE", Metric::kRootMeanSquareError},
    {"MaxRE", Metric::kMaxRelativeError},        {"MeanRE", Metric::kMeanRelativeError},
};

bool is_fp32(const std::string& dtype) { return dtype == "float32" || dtype == "float64"; }
bool is_int8(const std::string& dtype) { return dtype == "int8" || dtype == "uint8"; }

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "fail";
    case Verdict::kNotCompared:
      return "not compared";
  }
  return "";
}

std::optional<Metric> metric_from_name(const std::string& name) {
  for (const Alias& a : kAliases) {
    if (name == a.name) return a.metric;
  }
  for (Metric m : all_metrics()) {
    if (name == metric_name(m)) return m;
  }
  return std::nullopt;
}

VerdictRules::VerdictRules() = default;

VerdictRules::VerdictRules(const std::vector<std::string>& overrides) {
  for (const std::string& rule : overrides) add_override(rule);
}

void VerdictRules::add_override(const std::string& rule) {
  const size_t eq = rule.rfind('=');
  if (eq == std::string::npos) {
    throw Error(ExitCode::kUsage, "--threshold '" + rule + "': expected [PATTERN:]Metric=VALUE");
  }
  std::string left = rule.substr(0, eq), pattern;
  const size_t colon = left.rfind(':');
  if (colon != std::string::npos) {
    pattern = left.substr(0, colon);
    left = left.substr(colon + 1);
  }
  const std::optional<Metric> metric = metric_from_name(left);
  if (!metric) throw Error(ExitCode::kUsage, "--threshold '" + rule + "': unknown metric " + left);
  char* end = nullptr;
  const std::string number = rule.substr(eq + 1);
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(value)) {
    throw Error(ExitCode::kUsage, "--threshold '" + rule + "': the value must be a number");
  }
  overrides_.push_back({pattern, {*metric, value}});
}

std::vector<Limit> VerdictRules::limits(const std::string& op_name,
                                        const std::string& dtype) const {
  // msit's limits, tighter for float32/64 and looser for int8 tensors (docs/verdicts.md).
  std::vector<Limit> out = {{Metric::kCosineSimilarity, 0.99},
                            {Metric::kRelativeEuclideanDistance, 0.05},
                            {Metric::kKullbackLeiblerDivergence, 0.005},
                            {Metric::kRootMeanSquareError, 1.0},
                            {Metric::kMeanRelativeError, 1.0}};
  if (is_fp32(dtype)) {
    out[0].value = 0.999;
    out[1].value = 0.01;
    out[2].value = 0.001;
  } else if (is_int8(dtype)) {
    out[0].value = 0.98;
    out[1].value = 0.1;
    out[2].value = 0.01;
  }
  for (const Override& o : overrides_) {
    if (!o.pattern.empty() && fnmatch(o.pattern.c_str(), op_name.c_str(), 0) != 0) continue;
    bool replaced = false;
    for (Limit& l : out) {
      if (l.metric == o.limit.metric) {
        l.value = o.limit.value;
        replaced = true;
      }
    }
    if (!replaced) out.push_back(o.limit);
  }
  return out;
}

Verdict VerdictRules::judge(const std::string& op_name, const std::string& dtype,
                            const std::vector<Metric>& metrics,
                            const std::vector<MetricCell>& cells, std::string* why) const {
  bool computed = false;
  for (const MetricCell& c : cells) computed = computed || c.computed();
  if (!computed) return Verdict::kNotCompared;
  for (const Limit& l : limits(op_name, dtype)) {
    if (l.metric == Metric::kStandardDeviation) continue;
    for (size_t k = 0; k < metrics.size() && k < cells.size(); ++k) {
      if (metrics[k] != l.metric || !cells[k].computed()) continue;
      const double v = cells[k].number();
      const bool cosine = l.metric == Metric::kCosineSimilarity;
      const bool bad = std::isnan(v) || (cosine ? v < l.value : v > l.value);
      if (!bad) continue;
      if (why) {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", l.value);
        *why = std::string(metric_name(l.metric)) + " " + format_fixed6(v) +
               (cosine ? " < " : " > ") + limit;
      }
      return Verdict::kFail;
    }
  }
  return Verdict::kPass;
}

void VerdictRules::judge(const std::vector<Metric>& metrics, CompareRecord& record) const {
  record.verdict_why.clear();
  record.verdict = record.compared() ? judge(record.id.my_op, record.id.my_dtype, metrics,
                                             record.metrics, &record.verdict_why)
                                     : Verdict::kNotCompared;
}

}  // namespace dumpcmp
