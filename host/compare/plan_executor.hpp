#pragma once
// Runs rows of a ComparePlan: byte-bounded batches of consecutive rows, each batch's dumps read on
// all host threads, its tensor pairs reduced in one backend call, its records derived and judged
// on all cores and handed to the sink in row order.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "compare/compare_plan.hpp"
#include "core/diagnostics.hpp"
#include "report/record.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

// Metric columns computed outside the backend (custom algorithms, -c): for one compared pair, a
// text cell and a CompareFailReason message per custom column of the table, in its order. Called
// from one thread, in row order.
class ExtraMetrics {
 public:
  struct Cell {
    std::string text, reason;
  };
  virtual ~ExtraMetrics() = default;
  virtual std::vector<Cell> compute(const TensorPairJob& pair, const PairContext& context) = 0;
};

struct ExecuteOptions {
  uint64_t batch_bytes = 64ull << 20;   // payload bytes gathered before a backend call
  int threads = 0;                      // host threads for reading and deriving (0 = all)
  const VerdictRules* rules = nullptr;  // judge every record with these (none: not judged)
  ExtraMetrics* extra = nullptr;        // the plan's custom columns (none: they read "NaN")
  // Called after each batch: (rows done, rows in all, payload bytes compared so far).
  std::function<void(int64_t, int64_t, uint64_t)> progress;
};

struct ExecuteSummary {
  int64_t rows = 0;
  int64_t failed_rows = 0;  // rows whose metrics could not be computed
  uint64_t bytes = 0;       // payload bytes compared (both sides)
  // Inputs that could not be used when their rows ran (changed or unreadable since planning),
  // each once.
  std::vector<InputProblem> input_problems;

  // Adds another run's rows (e.g. another range or another rank's share).
  void add(const ExecuteSummary& other) {
    rows += other.rows;
    failed_rows += other.failed_rows;
    bytes += other.bytes;
    input_problems.insert(input_problems.end(), other.input_problems.begin(),
                          other.input_problems.end());
  }
};

// Runs rows [begin, end) of the plan into the sink (which the caller has begun). A dump that
// cannot be read now, or no longer holds the planned tensor, fails its rows; the run goes on.
// `opened` (optional): dumps the planner kept, used instead of reading them again.
ExecuteSummary execute_plan(const ComparePlan& plan, std::size_t begin, std::size_t end,
                            Backend& backend, RecordSink& sink, const ExecuteOptions& options,
                            OpenedDumps* opened = nullptr);

// One compared row's tensor pair, read now: the dumps (held here, so the job's pointers stay valid)
// and the backend job, or the problem that keeps the row from being compared (as execute_plan
// would report it). For reducing one row outside execute_plan (a row split between ranks).
struct OpenedPair {
  std::shared_ptr<const DumpFile> x_file, y_file;
  const TensorInfo* x_tensor = nullptr;
  TensorPairJob job;
  std::string problem;  // empty when job is ready
};
OpenedPair open_row_pair(const ComparePlan& plan, const PlanRow& row);

// The record of a compared pair: every metric derived from the accumulators, the notes first.
CompareRecord compared_record(const std::vector<Metric>& metrics, const RowIdentity& id,
                              const PairStats& stats, const PairContext& context,
                              std::vector<std::string> reasons);

}  // namespace dumpcmp
