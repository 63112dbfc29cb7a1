#include "run/tree_run.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/text.hpp"
#include "run/run_log.hpp"
#include "tree/batch_mode.hpp"
#include "tree/run_journal.hpp"
#include "tree/tree_hdf5.hpp"
#include "tree/tree_jobs.hpp"
#include "tree/tree_pairing.hpp"
#include "tree/tree_ranks.hpp"
#include "tree/tree_report.hpp"

namespace dumpcmp {
namespace {

// Logs each leaf's warnings, new input problems and failure, then shows the leaf to `shown` with
// only the problems not seen before.
class LoggingObserver final : public TreeObserver {
 public:
  LoggingObserver(TreeRunObserver& shown, RunLog& log) : shown_(shown), log_(log) {}

  void dealt(const std::vector<int>& rank_of_leaf) override { shown_.dealt(rank_of_leaf); }
  void leaf_started(std::size_t k, const TreeJob& job) override { shown_.leaf_started(k, job); }
  void progress(std::size_t k, int64_t done, int64_t total, uint64_t bytes) override {
    shown_.progress(k, done, total, bytes);
  }
  void leaf_finished(std::size_t k, const TreeJob& job, const LeafOutcome& outcome) override {
    for (const std::string& w : outcome.warnings) log_.warning(w);
    LeafOutcome seen = outcome;
    seen.input_problems = log_.input_problems(outcome.input_problems);
    if (!outcome.message.empty()) log_.error(leaf_message(job, outcome));
    shown_.leaf_finished(k, job, seen);
  }

 private:
  TreeRunObserver& shown_;
  RunLog& log_;
};

// The options that make a resumed run the same run.
std::string run_settings(const TreeRunRequest& request, const CompareOptions& options) {
  std::string text = "dumpcmp-tree-1";
  for (const std::string& a : request.algorithms) text += " alg=" + a;
  for (const std::string& t : request.thresholds) text += " threshold=" + t;
  text += " max=" + std::to_string(options.max_cmp_size) + " f=" + options.fusion_rule_path +
          " q=" + options.quant_rule_path + " cf=" + options.close_fusion_rule_path +
          " r=" + options.range + " s=" + options.select +
          " overflow=" + std::to_string(options.overflow_detection) +
          " ffts=" + std::to_string(options.ffts) + " advisor=" + std::to_string(request.advisor) +
          " hdf5=" + std::to_string(!request.hdf5.empty()) +
          " mirror=" + std::to_string(request.mirror);
  if (options.quantiles) text += " quantiles=1";
  return text;
}

LeafSelection leaf_selection(const TreeRunRequest& request) {
  LeafSelection selection;
  if (!request.steps.empty()) {
    std::string problem;
    selection.steps = StepSet::parse(request.steps, &problem);
    if (!selection.steps) throw Error(ExitCode::kUsage, "--steps: " + problem);
  }
  for (const std::string& d : request.devices) {
    for (const std::string& id : split_commas(d)) {
      if (!trim(id).empty()) selection.devices.push_back(trim(id));
    }
  }
  return selection;
}

// Rank 0's jobs: the selected leaves of the tree (none is for the caller to refuse, after the
// warnings), or batch mode's graphs with their rules. `unused_rules`: the rule files batch mode
// left out, for summary.csv.
std::vector<TreeJob> plan_jobs(const TreeRunRequest& request, const LeafSelection& selection,
                               const DumpTree& npu, CompareOptions& base,
                               std::vector<std::string>& warnings,
                               std::vector<UnusedRule>& unused_rules) {
  if (request.batch) {
    std::vector<TreeJob> jobs;
    BatchPlan plan = plan_batch_mode(request.my_root, base.fusion_rule_path);
    warnings = plan.warnings;
    unused_rules = std::move(plan.unused_rules);
    for (const BatchLeaf& b : plan.leaves) {
      jobs.push_back(
          TreeJob{b.leaf, request.golden_root, b.rule_file, batch_result_stem(b.leaf), ""});
    }
    return jobs;
  }
  return plan_tree_jobs(npu, discover_golden_tree(request.golden_root), selection, base, warnings);
}

void count_outcomes(TreeRunResult& result) {
  for (std::size_t k = 0; k < result.outcomes.size(); ++k) {
    const LeafOutcome& out = result.outcomes[k];
    result.compared += out.status == LeafStatus::kCompared;
    result.failed += out.status == LeafStatus::kFailed;
    result.without_golden += out.status == LeafStatus::kNoGolden;
    result.outside += out.outside;
    if (result.exit_code == 0) result.exit_code = out.exit_code;
    if (!result.first_divergent && !out.first_op.empty()) result.first_divergent = k;
  }
}

}  // namespace

std::string leaf_message(const TreeJob& job, const LeafOutcome& outcome) {
  const std::string& leaf = job.leaf.path;
  const std::string& message = outcome.message;
  return message.find(leaf) == std::string::npos ? leaf + ": " + message : message;
}

TreeRunResult run_tree(const TreeRunRequest& request, const CompareOptions& options,
                       Backend& backend, TreeRunObserver& observer, World& world) {
  const VerdictRules rules(request.thresholds);
  CompareOptions base = options;
  base.rules = &rules;
  const LeafSelection selection = leaf_selection(request);
  // With node-local disks each host sees its own devices: rank 0 gets the union of every view.
  const bool everywhere = !request.batch && request.shard_by_device && world.size() > 1;
  const DumpTree npu = everywhere ? discover_on_every_rank(world, request.my_root)
                       : world.rank() == 0 && !request.batch ? discover_dump_tree(request.my_root)
                                                             : DumpTree{};
  TreeRunResult result;
  if (world.rank() != 0) {
    run_tree_share(world, base, backend);
    return result;
  }
  std::vector<std::string> warnings;
  std::vector<UnusedRule> unused_rules;
  result.jobs = plan_jobs(request, selection, npu, base, warnings, unused_rules);
  for (const std::string& w : warnings) observer.warned(w);
  if (!request.batch) require_tree_jobs(result.jobs, request.my_root, npu);
  make_stems_unique(result.jobs);
  observer.planned(result.jobs);

  TreeRunOptions run;
  run.out_dir = request.output_dir;
  run.resume = request.resume;
  run.advisor = request.advisor;
  run.hdf5 = !request.hdf5.empty();
  run.mirror = request.mirror;
  run.settings = run_settings(request, base);
  run.shard_by_device = request.shard_by_device;
  RunLog log(request.output_dir, request.command);
  for (const std::string& w : warnings) log.warning(w);
  LoggingObserver logging(observer, log);
  result.outcomes = run_tree_compare(result.jobs, base, backend, run, logging, world);
  const std::string& out = request.output_dir;
  write_tree_summary(out + "/summary.csv", result.jobs, result.outcomes, unused_rules);
  if (!request.batch) write_tree_index(out + "/index.html", result.jobs, result.outcomes);
  if (!request.hdf5.empty()) write_tree_hdf5(request.hdf5, out, result.jobs, result.outcomes);
  count_outcomes(result);
  if (request.batch) std::remove((out + "/" + kJournalName).c_str());  // nothing left to resume
  result.problem_counts = log.problem_counts();
  log.write();
  return result;
}

}  // namespace dumpcmp
