#include "compare/file_compare.hpp"

#include "compare/compare_messages.hpp"
#include "compare/npu_pairing.hpp"
#include "core/error.hpp"
#include "io/dump_file.hpp"
#include "report/result_table.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

// FILE_CMP_SUPPORTED_ALGORITHM: the ten without KLD and StandardDeviation.
const std::vector<Metric>& file_compare_metrics() {
  static const std::vector<Metric> metrics = {
      Metric::kCosineSimilarity,         Metric::kMaxAbsoluteError,
      Metric::kAccumulatedRelativeError, Metric::kRelativeEuclideanDistance,
      Metric::kMeanAbsoluteError,        Metric::kRootMeanSquareError,
      Metric::kMaxRelativeError,         Metric::kMeanRelativeError};
  return metrics;
}

bool is_npy(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

}  // namespace

FileCompareResult compare_npy_files(const std::string& my_path, const std::string& golden_path,
                                    Backend& backend) {
  for (const std::string* p : {&my_path, &golden_path}) {
    if (!is_npy(*p)) throw format_error(*p, "file_compare takes .npy files only");
  }
  const DumpFile mine = read_dump_file(my_path);
  const DumpFile golden = read_dump_file(golden_path);
  const TensorInfo& x = mine.outputs.at(0);
  const TensorInfo& y = golden.outputs.at(0);
  if (x.shape != y.shape) {
    throw Error(ExitCode::kInput, msg::file_shape_mismatch(x.shape, my_path, y.shape, golden_path));
  }
  TensorPairJob job;
  for (const ElementCheck& c :
       {tensor_element_source(mine, x, job.x), tensor_element_source(golden, y, job.y)}) {
    if (!c.error.empty()) throw Error(ExitCode::kInput, c.error);
  }
  job.both_bool = x.dtype == DType::kBool && y.dtype == DType::kBool;
  std::vector<PairStats> stats;
  backend.reduce({job}, stats);
  for (const DumpFile* file : {&mine, &golden}) {
    if (const std::string damage = damaged_problem(*file); !damage.empty()) {
      throw Error(ExitCode::kInput, damage);
    }
  }
  const PairContext ctx{shape_is_scalar_type(x.shape), my_path, golden_path};
  FileCompareResult result;
  for (Metric m : file_compare_metrics()) {
    MetricCell cell = derive_metric(m, stats[0], ctx);
    if (!cell.reason.empty()) result.reasons.push_back(cell.reason);
    result.lines.emplace_back(m, std::move(cell));
  }
  return result;
}

std::string format_file_result(const FileCompareResult& result) {
  std::string text;
  for (const auto& [metric, cell] : result.lines) {
    text += std::string(metric_name(metric)) + ": " + format_metric_cell(metric, cell) + "\n";
  }
  return text;
}

}  // namespace dumpcmp
