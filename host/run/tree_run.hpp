#pragma once
// A run over whole dump trees (--tree) or msaccucmp's batch mode, the same for the CLI and Python:
// the leaves found, selected and paired, each compared (or taken from the journal with --resume)
// over the world's ranks, and the run's files: summary.csv, index.html (--tree), the run's HDF5
// file and its log. Silent: the observer sees each leaf; the result holds what to print.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/compare_engine.hpp"
#include "scale/world.hpp"
#include "tree/tree_compare.hpp"

namespace dumpcmp {

struct TreeRunRequest {
  std::string my_root;      // -m: a dump tree, or batch mode's time directory
  std::string golden_root;  // -g
  std::string output_dir;
  bool batch = false;  // msaccucmp's batch mode: the fusion rule is a directory of rules
  std::string steps;   // --steps "0|3-5"; every step when empty
  std::vector<std::string> devices;  // --devices; every device when empty
  // -alg as given and --threshold; with the options, what makes a resumed run the same run.
  std::vector<std::string> algorithms;
  std::vector<std::string> thresholds;
  std::string hdf5;  // --hdf5 FILE: the run's file, and one beside each leaf's result CSV
  bool advisor = false;
  bool mirror = false;
  bool resume = false;
  bool shard_by_device = false;  // over ranks: each device's leaves on a rank that can read them
  std::string command;           // the command line (or the Python call): the log's first line
};

// Sees the run as it goes: the leaves (TreeObserver) and, before them, what discovery warned of.
class TreeRunObserver : public TreeObserver {
 public:
  virtual void warned(const std::string& /*warning*/) {}
  // The jobs found (rank 0, before any leaf runs).
  virtual void planned(const std::vector<TreeJob>& /*jobs*/) {}
};

struct TreeRunResult {
  std::vector<TreeJob> jobs;
  // One per job. The input problems of each are only those the run's log had not seen before.
  std::vector<LeafOutcome> outcomes;
  int64_t compared = 0, failed = 0, without_golden = 0, outside = 0;
  std::optional<std::size_t> first_divergent;  // the first job with a divergent op
  int exit_code = 0;                           // the first failing leaf's, else 0
  std::string problem_counts;                  // the log's summary of input problems, or ""
};

// The outcome's message, with the leaf's path in front unless it names a file of the leaf already.
std::string leaf_message(const TreeJob& job, const LeafOutcome& outcome);

// Rank 0 finds the leaves, runs them with the other ranks and writes the run's files; another
// rank runs the leaves rank 0 deals it and returns an empty result. `options` holds every leaf's
// compare options (its verdict rules come from request.thresholds). Throws Error(kInput) when no
// leaf is selected.
TreeRunResult run_tree(const TreeRunRequest& request, const CompareOptions& options,
                       Backend& backend, TreeRunObserver& observer, World& world);

}  // namespace dumpcmp
