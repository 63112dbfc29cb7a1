#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

// msaccucmp's ten built-in algorithms, in its `-alg all` order (indexes 0-9 select them).
enum class Metric {
  kCosineSimilarity,
  kMaxAbsoluteError,
  kAccumulatedRelativeError,
  kRelativeEuclideanDistance,
  kKullbackLeiblerDivergence,
  kStandardDeviation,
  kMeanAbsoluteError,
  kRootMeanSquareError,
  kMaxRelativeError,
  kMeanRelativeError,
};

constexpr int kMetricCount = 10;

std::string_view metric_name(Metric m);
const std::vector<Metric>& all_metrics();

// `-alg` values: "all", names or indexes, comma- or space-separated; order kept, duplicates
// dropped. Throws Error(kUsage) for an empty selection or an unknown algorithm.
std::vector<Metric> parse_metric_selection(const std::vector<std::string>& tokens);

}  // namespace dumpcmp
