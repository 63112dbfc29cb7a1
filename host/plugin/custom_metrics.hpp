#pragma once
// Custom algorithm columns (-c) for the plan executor: each compared pair decoded to float32 as
// msaccucmp hands it to its algorithms (device layouts restored, in the compared order) straight
// into the worker's shared memory, then every loaded plug-in run on it.
#include <memory>
#include <string>
#include <vector>

#include "compare/plan_executor.hpp"
#include "plugin/python_worker.hpp"

namespace dumpcmp {

class CustomMetrics : public ExtraMetrics {
 public:
  // Starts the worker for the custom algorithms -alg selected (in their column order). Columns
  // whose file cannot be used are dropped with a warning: loaded_columns() are those left.
  CustomMetrics(const std::string& custom_dir, const std::vector<CustomColumn>& selected,
                AlgorithmParams params, DiagnosticSink warnings);

  const std::vector<CustomColumn>& loaded_columns() const { return columns_; }

  std::vector<Cell> compute(const TensorPairJob& pair, const PairContext& context) override;

 private:
  std::unique_ptr<PythonWorker> worker_;
  std::vector<CustomColumn> columns_;
};

}  // namespace dumpcmp
