#include "metrics_fixture.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "report/result_table.hpp"

namespace dumpcmp::testing {

Row compare_vectors(Backend& backend, const std::vector<float>& x, const std::vector<float>& y,
                    bool scalar_shape) {
  TensorPairJob job;
  job.x = {reinterpret_cast<const uint8_t*>(x.data()), DType::kFloat,
           static_cast<int64_t>(x.size())};
  job.y = {reinterpret_cast<const uint8_t*>(y.data()), DType::kFloat,
           static_cast<int64_t>(y.size())};
  job.need_kld = true;
  std::vector<PairStats> stats;
  backend.reduce({job}, stats);
  PairContext ctx{scalar_shape, "my.bin", "golden.bin"};
  Row row;
  for (Metric m : all_metrics()) {
    MetricCell cell = derive_metric(m, stats[0], ctx);
    row.cells.push_back(format_metric_cell(m, cell));
    if (!cell.reason.empty()) row.reasons.push_back(cell.reason);
  }
  return row;
}

namespace {
bool parse_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}
}  // namespace

bool cells_agree(const std::string& got, const std::string& want, double abs_tol) {
  if (got == want) return true;
  if (want.size() > 1 && want.front() == '(') {  // StandardDeviation: compare the four numbers
    double g[4], w[4];
    if (std::sscanf(got.c_str(), "(%lf;%lf),(%lf;%lf)", &g[0], &g[1], &g[2], &g[3]) != 4 ||
        std::sscanf(want.c_str(), "(%lf;%lf),(%lf;%lf)", &w[0], &w[1], &w[2], &w[3]) != 4) {
      return false;
    }
    for (int i = 0; i < 4; ++i) {
      if (std::fabs(g[i] - w[i]) > 1e-3 + 1e-6 * std::fabs(w[i])) return false;
    }
    return true;
  }
  double g, w;
  if (!parse_number(got, g) || !parse_number(want, w)) return false;
  if (std::isnan(g) || std::isnan(w) || std::isinf(g) || std::isinf(w)) return false;
  return std::fabs(g - w) <= abs_tol || std::fabs(g - w) <= 1e-5 * std::fabs(w);
}

}  // namespace dumpcmp::testing
