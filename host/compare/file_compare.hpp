#pragma once
// msaccucmp's `file_compare`: two .npy files, eight algorithms (no KLD, no StandardDeviation),
// written as "Name: value" lines to file_result_<timestamp>.txt.
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "metrics/metric_table.hpp"

namespace dumpcmp {

struct FileCompareResult {
  std::vector<std::pair<Metric, MetricCell>> lines;  // (algorithm, value)
  std::vector<std::string> reasons;                  // messages msaccucmp only logs
};

// Throws Error(kInput) when a file is not .npy, cannot be read, or the shapes differ.
FileCompareResult compare_npy_files(const std::string& my_path, const std::string& golden_path,
                                    Backend& backend);

// "CosineSimilarity: 0.993999\n..." as msaccucmp writes it (LF, trailing newline).
std::string format_file_result(const FileCompareResult& result);

}  // namespace dumpcmp
