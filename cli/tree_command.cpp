#include "tree_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "common.hpp"
#include "core/error.hpp"
#include "core/msaccucmp_messages.hpp"
#include "core/text.hpp"
#include "report/progress_line.hpp"
#include "run_log.hpp"
#include "tree/batch_mode.hpp"
#include "tree/run_journal.hpp"
#include "tree/tree_compare.hpp"
#include "tree/tree_hdf5.hpp"
#include "tree/tree_jobs.hpp"
#include "tree/tree_pairing.hpp"
#include "tree/tree_ranks.hpp"
#include "tree/tree_report.hpp"

namespace dumpcmp::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The message, with the leaf's path in front unless it names a file of the leaf already.
std::string naming(const std::string& leaf, const std::string& message) {
  return message.find(leaf) == std::string::npos ? leaf + ": " + message : message;
}

// One console line per leaf, the leaf's warnings and failures on standard error.
class ConsoleObserver final : public TreeObserver {
 public:
  ConsoleObserver(const std::vector<TreeJob>& jobs, const std::string& out_dir, bool quiet,
                  int ranks, RunLog& log)
      : log_(log),
        leaves_(jobs.size()),
        ranks_(ranks),
        out_dir_(out_dir),
        quiet_(quiet),
        start_(std::chrono::steady_clock::now()),
        progress_(
            std::cerr, !quiet && isatty(STDERR_FILENO) != 0,
            [this] { return seconds_since(start_); }, "leaves") {}

  // Which leaves each rank runs: when a rank dies, mpirun names it, and this names its leaves.
  void dealt(const std::vector<int>& rank_of_leaf) override {
    if (quiet_) return;
    std::vector<std::vector<std::size_t>> leaves(static_cast<std::size_t>(ranks_));
    for (std::size_t k = 0; k < rank_of_leaf.size(); ++k) {
      leaves[static_cast<std::size_t>(rank_of_leaf[k])].push_back(k);
    }
    for (std::size_t r = 0; r < leaves.size(); ++r) {
      std::cout << "dumpcmp: rank " << r << " runs " << leaves[r].size() << " leaves";
      // Their numbers as ranges: 1-4,9,11-12.
      const std::vector<std::size_t>& l = leaves[r];
      for (std::size_t i = 0, j = 0; i < l.size(); i = j) {
        for (j = i + 1; j < l.size() && l[j] == l[j - 1] + 1;) ++j;
        std::cout << (i ? "," : " ") << l[i] + 1;
        if (j - i > 1) std::cout << '-' << l[j - 1] + 1;
      }
      std::cout << '\n';
    }
  }

  void progress(std::size_t k, int64_t, int64_t, uint64_t bytes) override {
    progress_.update(static_cast<int64_t>(k), static_cast<int64_t>(leaves_), bytes);
  }

  void leaf_finished(std::size_t k, const TreeJob& job, const LeafOutcome& o) override {
    progress_.finish();
    for (const std::string& w : o.warnings) {
      print_diagnostic(Severity::kWarning, w);
      log_.warning(w);
    }
    log_.input_problems(o.input_problems, quiet_);
    if (!o.message.empty()) log_.error(naming(job.leaf.path, o.message));
    const std::string where = "[" + std::to_string(k + 1) + "/" + std::to_string(leaves_) + "] " +
                              job.leaf.label() +
                              (ranks_ > 1 ? " (rank " + std::to_string(o.rank) + ")" : "");
    if (o.status != LeafStatus::kCompared) {
      print_diagnostic(Severity::kError, naming(job.leaf.path, o.message));
      if (!quiet_) std::cout << "dumpcmp: " << where << ": " << leaf_status_name(o.status) << '\n';
      return;
    }
    if (!o.message.empty()) print_diagnostic(Severity::kError, naming(job.leaf.path, o.message));
    if (quiet_) return;
    std::cout << "dumpcmp: " << where << ": " << o.rows << " rows, " << o.compared << " compared, "
              << o.outside << " outside tolerance, " << o.not_compared << " not compared"
              << (o.resumed ? " (resumed)" : "") << " -> " << out_dir_ << '/' << o.result_file
              << '\n';
  }

  double elapsed() const { return seconds_since(start_); }

 private:
  RunLog& log_;
  std::size_t leaves_;
  int ranks_;
  std::string out_dir_;
  bool quiet_;
  std::chrono::steady_clock::time_point start_;
  ProgressLine progress_;
};

// The options that make a resumed run the same run.
std::string run_settings(const CompareOptions& options, const CompareCommandOptions& o) {
  std::string text = "dumpcmp-tree-1";
  for (const std::string& a : o.algorithms) text += " alg=" + a;
  for (const std::string& t : o.thresholds) text += " threshold=" + t;
  text += " max=" + std::to_string(options.max_cmp_size) + " f=" + options.fusion_rule_path +
          " q=" + options.quant_rule_path + " cf=" + options.close_fusion_rule_path +
          " r=" + options.range + " s=" + options.select +
          " overflow=" + std::to_string(options.overflow_detection) +
          " ffts=" + std::to_string(options.ffts) + " advisor=" + std::to_string(o.advisor) +
          " hdf5=" + std::to_string(!o.hdf5.empty()) + " mirror=" + std::to_string(o.mirror);
  if (options.quantiles) text += " quantiles=1";
  return text;
}

// Runs the jobs, prints the run's end, returns the exit code: the first failing leaf's, else 5
// with --fail-on-threshold when a tensor is outside its tolerance, else 0.
// `warnings`: what discovery printed, kept in the run's log.
// `unused_rules`: the rule files batch mode left out, listed in summary.csv.
int run_jobs(std::vector<TreeJob>& jobs, const CompareOptions& options,
             const CompareCommandOptions& o, bool batch, World& world,
             const std::vector<std::string>& warnings,
             const std::vector<UnusedRule>& unused_rules = {}) {
  make_stems_unique(jobs);
  BackendSelection selection =
      select_backend(o.device, o.threads, o.device_memory_mb, o.quiet, world.local_rank());
  const VerdictRules rules = verdict_rules(o.thresholds);
  CompareOptions base = options;
  base.rules = &rules;
  TreeRunOptions run;
  run.out_dir = o.output_dir;
  run.resume = o.resume;
  run.advisor = o.advisor;
  run.hdf5 = !o.hdf5.empty();
  run.mirror = o.mirror;
  run.settings = run_settings(options, o);
  run.shard_by_device = o.shard_by == "device";
  RunLog log(o.output_dir, command_line());
  for (const std::string& w : warnings) log.warning(w);
  ConsoleObserver observer(jobs, o.output_dir, o.quiet, world.size(), log);
  const std::vector<LeafOutcome> outcomes =
      run_tree_compare(jobs, base, *selection.backend, run, observer, world);
  write_tree_summary(o.output_dir + "/summary.csv", jobs, outcomes, unused_rules);
  if (!batch) write_tree_index(o.output_dir + "/index.html", jobs, outcomes);
  if (!o.hdf5.empty()) write_tree_hdf5(o.hdf5, o.output_dir, jobs, outcomes);

  int code = 0;
  int64_t compared = 0, failed = 0, missing = 0, outside = 0;
  const LeafOutcome* first = nullptr;
  std::size_t first_k = 0;
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const LeafOutcome& out = outcomes[k];
    compared += out.status == LeafStatus::kCompared;
    failed += out.status == LeafStatus::kFailed;
    missing += out.status == LeafStatus::kNoGolden;
    outside += out.outside;
    if (code == 0) code = out.exit_code;
    if (!first && !out.first_op.empty()) {
      first = &out;
      first_k = k;
    }
  }
  if (batch) std::remove((o.output_dir + "/" + kJournalName).c_str());  // nothing left to resume
  if (!o.quiet) {
    std::cout << "dumpcmp: " << jobs.size() << " leaves: " << compared << " compared, " << failed
              << " failed, " << missing << " without a golden leaf, in " << observer.elapsed()
              << " s on the " << selection.backend->name() << " backend"
              << (world.size() > 1
                      ? " of " + std::to_string(world.size()) + " ranks (" +
                            std::to_string(world.bytes_moved()) + " bytes between ranks)"
                      : "")
              << "\n";
    std::cout << "dumpcmp: summary written to " << o.output_dir << "/summary.csv"
              << (batch ? "" : ", index to " + o.output_dir + "/index.html") << '\n';
    if (!o.hdf5.empty()) std::cout << "dumpcmp: HDF5 written to " << o.hdf5 << '\n';
    if (first) {
      std::cout << "dumpcmp: first divergent leaf: " << jobs[first_k].leaf.label() << ", op #"
                << first->first_index << " " << first->first_op << '\n';
    }
    log.print_counts();
  }
  log.write();
  if (code == 0 && o.fail_on_threshold && outside > 0) {
    code = static_cast<int>(ExitCode::kOutsideTolerance);
  }
  return code;
}

// A rank other than 0: runs the leaves rank 0 deals it (the same options, from the same command
// line), sends their records to rank 0, prints nothing.
int run_dealt_share(const CompareOptions& options, const CompareCommandOptions& o, World& world) {
  BackendSelection selection =
      select_backend(o.device, o.threads, o.device_memory_mb, true, world.local_rank());
  const VerdictRules rules = verdict_rules(o.thresholds);
  CompareOptions base = options;
  base.rules = &rules;
  run_tree_share(world, base, *selection.backend);
  return 0;
}

}  // namespace

int run_tree_mode(const CompareOptions& options, const CompareCommandOptions& o, World& world) {
  if (!o.op_name.empty() || o.mapping || !o.plan.empty() || !o.plan_only.empty() ||
      !o.html.empty() || !o.model_explorer.empty() || o.follow) {
    throw Error(ExitCode::kUsage,
                "--tree compares whole runs: -op, -map, plans, --html, --model-explorer and "
                "--follow do not apply (it writes summary.csv and index.html in the output "
                "directory)");
  }
  LeafSelection selection;
  if (!o.steps.empty()) {
    std::string problem;
    selection.steps = StepSet::parse(o.steps, &problem);
    if (!selection.steps) throw Error(ExitCode::kUsage, "--steps: " + problem);
  }
  for (const std::string& d : split_commas(o.devices)) {
    if (!trim(d).empty()) selection.devices.push_back(trim(d));
  }
  // With node-local disks each host sees its own devices: rank 0 gets the union of every view.
  const bool everywhere = o.shard_by == "device" && world.size() > 1;
  const DumpTree npu = everywhere          ? discover_on_every_rank(world, o.my_path)
                       : world.rank() == 0 ? discover_dump_tree(o.my_path)
                                           : DumpTree{};
  if (world.rank() != 0) return run_dealt_share(options, o, world);
  const GoldenTree golden = discover_golden_tree(o.golden_path);
  std::vector<std::string> warnings;
  CompareOptions base = options;
  std::vector<TreeJob> jobs = plan_tree_jobs(npu, golden, selection, base, warnings);
  for (const std::string& w : warnings) print_diagnostic(Severity::kWarning, w);
  require_tree_jobs(jobs, o.my_path, npu);
  return run_jobs(jobs, base, o, false, world, warnings);
}

int run_batch_mode(const CompareOptions& options, const CompareCommandOptions& o, World& world) {
  if (!o.op_name.empty()) throw Error(ExitCode::kUsage, msg::batch_single_op_refused(o.op_name));
  if (!o.model_explorer.empty() || o.follow) {
    throw Error(ExitCode::kUsage,
                "--model-explorer and --follow work on one model: not in batch "
                "mode");
  }
  if (world.rank() != 0) return run_dealt_share(options, o, world);
  const BatchPlan plan = plan_batch_mode(o.my_path, o.fusion_rule);
  for (const std::string& w : plan.warnings) print_diagnostic(Severity::kWarning, w);
  std::vector<TreeJob> jobs;
  for (const BatchLeaf& b : plan.leaves) {
    jobs.push_back(TreeJob{b.leaf, o.golden_path, b.rule_file, batch_result_stem(b.leaf), ""});
  }
  return run_jobs(jobs, options, o, true, world, plan.warnings, plan.unused_rules);
}

}  // namespace dumpcmp::cli
