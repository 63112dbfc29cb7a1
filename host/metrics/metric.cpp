#include "metrics/metric.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <string>

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

namespace {

bool is_index(const std::string& item) {
  return item.size() == 1 && std::isdigit(static_cast<unsigned char>(item[0]));
}

void add(std::vector<Metric>& selected, Metric m) {
  if (std::find(selected.begin(), selected.end(), m) == selected.end()) selected.push_back(m);
}

// argparse's `-alg 1 2 3` form (type=int, choices 0-9).
std::vector<Metric> parse_indexes(const std::vector<std::string>& tokens) {
  std::vector<Metric> selected;
  for (const std::string& token : tokens) {
    const std::string item = trim(token);
    std::size_t used = 0;
    long long value = -1;
    try {
      value = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size()) {
      throw Error(ExitCode::kUsage,
                  "argument -alg/--algorithm: invalid int value: '" + token + "'");
    }
    if (value < 0 || value >= kMetricCount) {
      throw Error(ExitCode::kUsage,
                  "argument -alg/--algorithm: invalid choice: " + std::to_string(value) +
                      " (choose from 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)");
    }
    add(selected, static_cast<Metric>(value));
  }
  return selected;
}

// A built-in algorithm, or the custom file of the same name: msaccucmp looks there first, for
// indexes and "all" too.
void add_algorithm(AlgorithmSelection& selected, const std::string& name,
                   const std::vector<std::string>& custom) {
  if (std::find(custom.begin(), custom.end(), name) != custom.end()) {
    auto& columns = selected.custom;
    if (std::none_of(columns.begin(), columns.end(),
                     [&](const CustomColumn& c) { return c.name == name; })) {
      columns.push_back({name, static_cast<int>(selected.metrics.size())});
    }
    return;
  }
  add(selected.metrics,
      static_cast<Metric>(std::find(kNames.begin(), kNames.end(), name) - kNames.begin()));
}

AlgorithmSelection with_custom(const std::vector<Metric>& metrics,
                               const std::vector<std::string>& custom) {
  AlgorithmSelection selected;
  for (Metric m : metrics) add_algorithm(selected, std::string(metric_name(m)), custom);
  return selected;
}

}  // namespace

std::string unsupported_algorithms_message(const std::string& selected,
                                           const std::vector<std::string>& custom) {
  std::string supported;  // Python's repr of the list of names
  for (const std::string_view name : kNames) {
    supported += (supported.empty() ? "'" : ", '") + std::string(name) + "'";
  }
  for (const std::string& name : custom) supported += ", '" + name + "'";
  return "The algorithm in " + selected + " does not supported. Just supports [" + supported +
         "]. Please check the select algorithm name.";
}

std::vector<Metric> parse_metric_selection(const std::vector<std::string>& tokens,
                                           std::vector<std::string>* warnings) {
  return parse_algorithm_selection(tokens, {}, warnings).metrics;
}

AlgorithmSelection parse_algorithm_selection(const std::vector<std::string>& tokens,
                                             const std::vector<std::string>& custom,
                                             std::vector<std::string>* warnings) {
  if (tokens.empty()) throw Error(ExitCode::kUsage, "-alg: no algorithm selected");
  if (tokens.size() > 1) {
    if (!is_index(tokens[1])) {
      std::string extra;
      for (std::size_t i = 1; i < tokens.size(); ++i) extra += (i > 1 ? " " : "") + tokens[i];
      throw Error(ExitCode::kUsage, "unrecognized arguments: " + extra);
    }
    return with_custom(parse_indexes(tokens), custom);
  }
  const std::string& text = tokens.front();
  if (text.empty()) {
    throw Error(ExitCode::kUsage,
                "There is no algorithm to select. Please select at least one algorithm.");
  }
  std::string lower = text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "all") return with_custom(all_metrics(), custom);
  AlgorithmSelection selected;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = trim(std::string_view(text).substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) continue;
    if (is_index(item)) {
      add_algorithm(selected, std::string(kNames[static_cast<std::size_t>(item[0] - '0')]), custom);
      continue;
    }
    if (std::find(custom.begin(), custom.end(), item) != custom.end()) {
      add_algorithm(selected, item, custom);
      continue;
    }
    const auto it = std::find(kNames.begin(), kNames.end(), item);
    if (it == kNames.end()) {
      if (warnings) {
        warnings->push_back("The '" + item +
                            "' does not supported in builtin or custom. Please check the "
                            "algorithm name or algorithm index.");
      }
      continue;
    }
    add(selected.metrics, static_cast<Metric>(it - kNames.begin()));
  }
  if (selected.metrics.empty() && selected.custom.empty()) {
    throw Error(ExitCode::kUsage, unsupported_algorithms_message("'" + text + "'", custom));
  }
  return selected;
}

}  // namespace dumpcmp
