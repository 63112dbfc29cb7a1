#pragma once
// A whole run: one compare per leaf pair, each into its own result CSV in the output directory,
// a journal line per finished leaf (so --resume skips it), and summary.csv at the end.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "compare/compare_engine.hpp"
#include "core/diagnostics.hpp"
#include "scale/world.hpp"
#include "tree/batch_mode.hpp"
#include "tree/dump_tree.hpp"
#include "tree/leaf_values.hpp"

namespace dumpcmp {

struct TreeJob {
  TreeLeaf leaf;            // the NPU leaf
  std::string golden_path;  // "" when the golden side has no leaf for it
  std::string fusion_rule;  // this leaf's rule file (batch mode); "" = the base options'
  std::string stem;         // the result file is <stem>_result_<YYYYmmddHHMMSS>.csv
  std::string note;         // how the leaf was paired, when worth saying
};

enum class LeafStatus { kCompared, kNoGolden, kFailed };

struct LeafOutcome {
  LeafStatus status = LeafStatus::kFailed;
  std::string result_file;  // the CSV's path relative to the output directory ("" when none)
  int64_t rows = 0, compared = 0, outside = 0, not_compared = 0;
  std::string first_op;     // the first divergent op ("" when none)
  int64_t first_index = 0;  // its Index
  int exit_code = 0;        // what a one-leaf compare would exit with
  std::string message;      // why the leaf failed or has no golden, or the NO_DUMP text
  std::vector<std::string> warnings;
  std::vector<InputProblem> input_problems;  // bad input files of the leaf, each once
  uint64_t bytes = 0;
  bool resumed = false;  // taken from the journal of an earlier run
  int rank = 0;          // the rank that ran it (runs over MPI)
  // The compared rows' metric values (a leaf of tensor dumps that was compared; else null).
  std::shared_ptr<const LeafValues> values;
};

struct TreeRunOptions {
  std::string out_dir;
  bool resume = false;
  bool advisor = false;  // advisor_summary.txt per leaf (each replaces the last, as msaccucmp's)
  bool hdf5 = false;     // <stem>_result_<ts>.h5 beside each result CSV (tree/tree_hdf5.hpp)
  bool mirror = false;   // results as <leaf's relative path>/result_<ts>.csv, not <stem>_result_
  std::string settings;  // the options that make two runs the same run (the journal's key)
  bool shard_by_device = false;  // over ranks: each device's leaves on a rank that can read them
};

class TreeObserver {
 public:
  virtual ~TreeObserver() = default;
  // Over several ranks: the rank each leaf was dealt to (before any leaf starts).
  virtual void dealt(const std::vector<int>& /*rank_of_leaf*/) {}
  virtual void leaf_started(std::size_t /*k*/, const TreeJob& /*job*/) {}
  virtual void leaf_finished(std::size_t /*k*/, const TreeJob& /*job*/,
                             const LeafOutcome& /*outcome*/) {}
  // Ops of the current leaf done / in all, payload bytes of the whole run so far.
  virtual void progress(std::size_t /*k*/, int64_t /*done*/, int64_t /*total*/,
                        uint64_t /*bytes*/) {}
};

// Runs every job in order; a failing leaf fails alone. Throws Error only when the output
// directory or the journal cannot be written, or --resume finds the journal of another run, or a
// rank cannot go on. In a world of several ranks this is rank 0's part: the leaves are dealt to
// every rank (the others run tree/tree_ranks' run_tree_share) and written here.
std::vector<LeafOutcome> run_tree_compare(const std::vector<TreeJob>& jobs,
                                          const CompareOptions& base, Backend& backend,
                                          const TreeRunOptions& options, TreeObserver& observer,
                                          World& world);

// summary.csv: one line per leaf, then one per rule file batch mode did not use (written
// atomically).
void write_tree_summary(const std::string& path, const std::vector<TreeJob>& jobs,
                        const std::vector<LeafOutcome>& outcomes,
                        const std::vector<UnusedRule>& unused_rules = {});

std::string_view leaf_status_name(LeafStatus status);

// Two leaves with the same stem get their model_id (then their position) added, so that no
// result file replaces another.
void make_stems_unique(std::vector<TreeJob>& jobs);

}  // namespace dumpcmp
