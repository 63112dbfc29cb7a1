#pragma once
// Whole-network compare: inventories -> op pairing (or the fusion rule's groups) -> one ComparePlan
// of every row -> the executor's batches of tensor pairs reduced by a backend -> records handed to
// a sink in table order.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "compare/compare_plan.hpp"
#include "compare/custom_conversions.hpp"
#include "compare/plan_executor.hpp"
#include "metrics/metric.hpp"
#include "report/record.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

class Inventory;

struct CompareOptions {
  std::string my_path;      // -m: a dump directory, or one dump / .npy file
  std::string golden_path;  // -g
  std::vector<Metric> metrics = all_metrics();
  int64_t max_cmp_size = 0;            // -max: compare only the first N elements (0 = all)
  uint64_t batch_bytes = 64ull << 20;  // payload bytes gathered before a backend call
  int threads = 0;  // -j: host threads for reading files and printing rows (0 = all)

  // Offline model vs framework (docs/formats.md §4-5, §8): a rule file selects the fusion path.
  std::string fusion_rule_path;        // -f: the offline model's atc JSON
  std::string quant_rule_path;         // -q: the AMCT quantization rule
  std::string close_fusion_rule_path;  // -cf: the fusion-off model's JSON (NPU vs NPU)
  bool overflow_detection = false;     // -overflow_detection: the OverFlow column
  bool quantiles = false;              // --quantiles: the error distributions' columns
  bool ffts = false;                   // -ffts: FFTS+ slices compared as they are (names kept)
  std::string range;                   // -r start,end,step (OpSequence)
  std::string select;                  // -s i,j,... (OpSequence)
  // With -r/-s: the OpSequence column. msaccucmp's CLI leaves it out for "--range=..." forms.
  bool op_sequence_column = true;

  const VerdictRules* rules = nullptr;  // judge every record with these (none: not judged)
  // Custom algorithms (-c): their columns in the table, and what computes them (owned by the
  // caller; null: the columns read "NaN").
  std::vector<CustomColumn> custom_columns;
  ExtraMetrics* custom_metrics = nullptr;
  // Custom format conversions (-c DIR/format_convert/) for the fusion-rule path (owned by the
  // caller; null: the built-in conversions only).
  CustomConversions* custom_conversions = nullptr;

  // Directory compares without a rule: when set, only the ops whose chosen NPU file it accepts
  // are planned, numbered from 0 (a live compare's ops that are complete; --follow).
  std::function<bool(const std::string&)> npu_file_filter;

  // Called as ops finish (ops done, ops in all, payload bytes compared so far); may be empty.
  std::function<void(int64_t, int64_t, uint64_t)> progress;
};

struct CompareSummary {
  int64_t ops = 0;
  int64_t rows = 0;
  int64_t failed_rows = 0;  // rows whose metrics could not be computed
  uint64_t bytes = 0;       // payload bytes compared (both sides)
  int64_t split_rows = 0;   // rows whose tensors several ranks reduced together (MPI runs)
  // False when not one op of the model had a dump (msaccucmp's NO_DUMP_FILE error).
  bool dump_match = true;
  std::vector<std::string> warnings;        // for the console: rule and selection problems
  std::vector<std::string> input_op_names;  // the model's Data ops (the advisor's input nodes)
  // Inputs the rows could not use when they ran (planning's are in the plan), each once.
  std::vector<InputProblem> input_problems;
};

// Plans the compare the options describe (the fusion-rule path when a rule file is given). Throws
// Error for problems that stop the whole run (unreadable directory, no dump files, bad rule);
// problems of one op or tensor become that row's CompareFailReason.
// `opened` (optional) keeps small parsed dumps for run_plan.
ComparePlan plan_compare(const CompareOptions& options, OpenedDumps* opened = nullptr);

// Runs every row of a plan into the sink (begin, records; the caller commits). Uses the options'
// batch size, threads, verdict rules and progress callback.
CompareSummary run_plan(const ComparePlan& plan, const CompareOptions& options, Backend& backend,
                        RecordSink& writer, OpenedDumps* opened = nullptr);

// The executor's options as a compare's options give them (batch size, threads, rules, progress).
ExecuteOptions execute_options(const CompareOptions& options);

// The summary of a plan whose rows ran as `done` says.
CompareSummary compare_summary(const ComparePlan& plan, const ExecuteSummary& done);

// What both planners start from: a plan without rows, with the options' metrics and columns for
// these two sides.
ComparePlan plan_without_rows(const CompareOptions& options, const Inventory& left,
                              const Inventory& right);
// The options a planner runs with: msaccucmp turns overflow detection off for .npy dumps, keeping
// the column.
CompareOptions planner_options(const CompareOptions& options, const Inventory& left);

// plan_compare, then run_plan.
CompareSummary run_compare(const CompareOptions& options, Backend& backend, RecordSink& writer);

}  // namespace dumpcmp
