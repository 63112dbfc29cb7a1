#include "plugin/custom_metrics.hpp"

#include <algorithm>

#include "simd/decode_elements.hpp"

namespace dumpcmp {

CustomMetrics::CustomMetrics(const std::string& custom_dir,
                             const std::vector<CustomColumn>& selected, AlgorithmParams params,
                             DiagnosticSink warnings) {
  std::vector<std::string> names;
  for (const CustomColumn& c : selected) names.push_back(c.name);
  worker_ =
      std::make_unique<PythonWorker>(custom_dir, names, std::move(params), std::move(warnings));
  const std::vector<std::string>& loaded = worker_->loaded();
  for (const CustomColumn& c : selected) {
    if (std::find(loaded.begin(), loaded.end(), c.name) != loaded.end()) columns_.push_back(c);
  }
}

std::vector<ExtraMetrics::Cell> CustomMetrics::compute(const TensorPairJob& pair,
                                                       const PairContext& context) {
  const int64_t n = pair.x.count;
  // msaccucmp hands bool pairs only to the algorithms named CosineSimilarity and
  // RelativeEuclideanDistance (a custom file of that name included), as numpy bools.
  std::vector<std::string> run;
  for (const CustomColumn& c : columns_) {
    if (!pair.both_bool || c.name == "CosineSimilarity" || c.name == "RelativeEuclideanDistance") {
      run.push_back(c.name);
    }
  }
  std::vector<PluginCell> results;
  if (!run.empty()) {
    const auto [x, y] = worker_->arrays(n);
    decode_elements(pair.x, 0, n, x);
    decode_elements(pair.y, 0, n, y);
    if (pair.both_bool) {  // the same memory as bytes 0/1: numpy's bool
      auto* xb = reinterpret_cast<uint8_t*>(x);
      auto* yb = reinterpret_cast<uint8_t*>(y);
      for (int64_t i = 0; i < n; ++i) {
        xb[i] = x[i] != 0.0f;
        yb[i] = y[i] != 0.0f;
      }
    }
    results = worker_->compare(
        n, {context.my_file, context.golden_file, context.scalar_shape, pair.both_bool}, run);
  }
  std::vector<Cell> cells;
  std::size_t next = 0;
  for (const CustomColumn& c : columns_) {
    if (next < run.size() && run[next] == c.name) {
      cells.push_back({std::move(results[next].text), std::move(results[next].reason)});
      ++next;
    } else {
      cells.push_back({"NaN", "Algorithm " + c.name + " does not support Boolean types."});
    }
  }
  return cells;
}

}  // namespace dumpcmp
