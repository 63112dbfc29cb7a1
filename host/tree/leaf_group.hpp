#pragma once
// The two halves of running a leaf of tensor dumps: LeafGroup runs the plans of several small
// leaves as one plan (so they share the executor's batches) and hands each leaf's records to that
// leaf's sink; LeafResults is such a sink on the rank that writes the outputs: the leaf's result
// CSV (and HDF5, advisor) and its outcome. Between them the records may travel between ranks
// (tree/tree_ranks).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compare/compare_engine.hpp"
#include "core/error.hpp"
#include "report/advisor.hpp"
#include "report/csv_writer.hpp"
#include "report/hdf5_writer.hpp"
#include "report/result_analysis.hpp"
#include "report/tee_writer.hpp"
#include "tree/tree_compare.hpp"

namespace dumpcmp {

// What a leaf's plan says beside its rows.
struct LeafFacts {
  uint64_t bytes = 0;  // payload of its compared rows
  int64_t rows = 0;
  bool dump_match = true;
  std::vector<std::string> warnings, input_op_names;
  std::vector<InputProblem> input_problems;
};
LeafFacts leaf_facts(const ComparePlan& plan);

// The options of one leaf's compare: the run's, with the leaf's two sides and rule file.
CompareOptions leaf_options(const CompareOptions& base, const TreeJob& job);

// What comes before "result_<ts>.csv" in a leaf's result path, relative to the output directory.
std::string result_prefix(const TreeJob& job, const TreeRunOptions& run);
// The path of a leaf's output file, given relative to the output directory; its directory is
// created (--mirror).
std::string leaf_output_path(const TreeRunOptions& run, const std::string& relative);

// The result files of one leaf and, once its last record is in, its outcome.
class LeafResults {
 public:
  // Creates the leaf's result files (as .partial) and begins them with the table.
  LeafResults(const TreeJob& job, const TreeRunOptions& run, const CompareOptions& base,
              LeafFacts facts, const ResultTable& table);
  RecordSink& sink() { return *sink_; }
  // Bad input files met while the rows ran (a dump changed since planning), reported with the
  // leaf's own.
  void add_input_problems(const std::vector<InputProblem>& problems);
  // Commits the files; the leaf's outcome.
  LeafOutcome finish(const CompareOptions& base);

 private:
  const TreeRunOptions& run_;
  LeafFacts facts_;
  ResultTable table_;
  std::string result_file_;
  std::unique_ptr<CsvSink> csv_;
  ResultAnalysis analysis_;
  LeafValuesSink values_;
  AdvisorSink advisor_;
  std::unique_ptr<Hdf5Writer> hdf5_;
  std::unique_ptr<TeeSink> sink_;
};

// The outcome of a leaf whose compare failed with this exception.
LeafOutcome failed_outcome(const std::exception& e);
LeafOutcome failed_outcome(ExitCode code, const std::string& message);

// Small leaves run as one plan, each leaf's records routed to its own sink in its row order.
class LeafGroup {
 public:
  static constexpr std::size_t kMaxLeaves = 64;
  // Leaves past this much payload fill the executor's batches themselves; grouping them measured
  // 7% slower (2 x 10 leaves of 18 MB) than running each alone, while 100 leaves of 10 ops ran
  // in 0.25 s instead of 0.37 s grouped (docs/performance.md).
  static constexpr uint64_t kMaxSmallBytes = 16ull << 20;

  // A group holds at most one executor batch (batch_bytes) of payload, and small leaves only.
  explicit LeafGroup(uint64_t batch_bytes) : max_bytes_(std::min(batch_bytes, kMaxSmallBytes)) {}

  bool empty() const { return leaves_.empty(); }
  std::size_t first() const { return leaves_.front().k; }
  bool accepts(const ComparePlan& plan) const;
  // Leaf k's plan; its records go to `sink` (begun by the caller; not committed here).
  void add(std::size_t k, ComparePlan plan, OpenedDumps opened, RecordSink& sink);
  struct LeafRun {
    std::size_t k = 0;
    // nullopt when the leaf's records are all in its sink, else the outcome of the failure that
    // stopped the group.
    std::optional<LeafOutcome> failure;
    std::vector<InputProblem> input_problems;  // met while its rows ran
  };
  // Runs every row; one LeafRun per leaf, in the order they were added.
  std::vector<LeafRun> run(Backend& backend, const CompareOptions& base);

 private:
  struct Leaf {
    std::size_t k = 0, begin = 0, end = 0;
    int32_t first_file = 0, end_file = 0;  // its files in plan_.files
    RecordSink* sink = nullptr;
  };
  class Router;

  uint64_t max_bytes_;
  ComparePlan plan_;
  OpenedDumps opened_;
  std::vector<Leaf> leaves_;
  uint64_t bytes_ = 0;
};

}  // namespace dumpcmp
