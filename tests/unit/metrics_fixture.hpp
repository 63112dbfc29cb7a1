#pragma once
// Runs msaccucmp's ten metrics on in-memory vectors through a backend, for table-driven tests.
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "metrics/metric.hpp"

namespace dumpcmp::testing {

struct Row {
  std::vector<std::string> cells;    // in all_metrics() order
  std::vector<std::string> reasons;  // non-empty reasons, in column order
};

Row compare_vectors(Backend& backend, const std::vector<float>& x, const std::vector<float>& y,
                    bool scalar_shape = false);
// True when two printed cells agree: equal strings, or both numbers within 1e-5 relative / 1e-6
// absolute (msaccucmp sums in float32, we in double: docs/decisions.md decision 1).
bool cells_agree(const std::string& got, const std::string& want, double abs_tol = 1e-6);

}  // namespace dumpcmp::testing
