#pragma once
// `compare -map`: instead of comparing, the table of which NPU tensor goes with which ground-truth
// file under the fusion rule (msaccucmp's make_gpu_and_npu_mapping_table; docs/formats.md §8).
#include <cstdint>

#include "compare/compare_engine.hpp"
#include "report/csv_writer.hpp"

namespace dumpcmp {

// Header Index,[OpSequence],OpType,NPUDump,GroundTruth,TensorIndex,NPUDumpPath,GroundTruthPath;
// one row per dumped tensor, "NaN" where a file is missing. Returns the number of rows. Needs -f
// or -q in options (the scenario matrix applies as for compare).
int64_t write_mapping_table(const CompareOptions& options, CsvWriter& writer);

}  // namespace dumpcmp
