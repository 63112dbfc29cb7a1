#include "metrics/metric.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/error.hpp"

namespace dumpcmp {
namespace {

constexpr std::array<std::string_view, kMetricCount> kNames{
    "CosineSimilarity",          "MaxAbsoluteError",          "AccumulatedRelativeError",
    "RelativeEuclideanDistance", "KullbackLeiblerDivergence", "StandardDeviation",
    "MeanAbsoluteError",         "RootMeanSquareError",       "MaxRelativeError",
    "MeanRelativeError"};

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

std::string_view metric_name(Metric m) { return kNames[static_cast<std::size_t>(m)]; }

const std::vector<Metric>& all_metrics() {
  static const std::vector<Metric> all = [] {
    std::vector<Metric> v;
    for (int i = 0; i < kMetricCount; ++i) v.push_back(static_cast<Metric>(i));
    return v;
  }();
  return all;
}

std::vector<Metric> parse_metric_selection(const std::vector<std::string>& tokens) {
  std::vector<std::string> items;
  for (const std::string& token : tokens) {
    std::size_t start = 0;
    while (start <= token.size()) {
      const std::size_t comma = std::min(token.find(',', start), token.size());
      std::string item = trim(std::string_view(token).substr(start, comma - start));
      if (!item.empty()) items.push_back(item);
      start = comma + 1;
    }
  }
  if (items.empty()) throw Error(ExitCode::kUsage, "-alg: no algorithm selected");
  std::vector<Metric> selected;
  auto add = [&selected](Metric m) {
    if (std::find(selected.begin(), selected.end(), m) == selected.end()) selected.push_back(m);
  };
  for (const std::string& item : items) {
    if (item == "all") {
      for (Metric m : all_metrics()) add(m);
      continue;
    }
    if (item.size() == 1 && std::isdigit(static_cast<unsigned char>(item[0]))) {
      add(static_cast<Metric>(item[0] - '0'));
      continue;
    }
    const auto it = std::find(kNames.begin(), kNames.end(), item);
    if (it == kNames.end()) {
      throw Error(ExitCode::kUsage,
                  "-alg: unknown algorithm '" + item +
                      "' (use all, 0-9 or CosineSimilarity, MaxAbsoluteError, ...)");
    }
    add(static_cast<Metric>(it - kNames.begin()));
  }
  return selected;
}

}  // namespace dumpcmp
