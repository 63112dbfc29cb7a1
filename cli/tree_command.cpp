#include "tree_command.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>

#include "common.hpp"
#include "core/error.hpp"
#include "report/progress_line.hpp"
#include "run/tree_run.hpp"
#include "tree/batch_messages.hpp"

namespace dumpcmp::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Discovery's warnings, then one console line per leaf with the leaf's warnings, new input
// problems and failures on standard error.
class ConsoleObserver final : public TreeRunObserver {
 public:
  ConsoleObserver(const std::string& out_dir, bool quiet, int ranks)
      : ranks_(ranks),
        out_dir_(out_dir),
        quiet_(quiet),
        start_(std::chrono::steady_clock::now()),
        progress_(
            std::cerr, !quiet && isatty(STDERR_FILENO) != 0,
            [this] { return seconds_since(start_); }, "leaves") {}

  void warned(const std::string& warning) override {
    print_diagnostic(Severity::kWarning, warning);
  }
  void planned(const std::vector<TreeJob>& jobs) override { leaves_ = jobs.size(); }

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
    for (const std::string& w : o.warnings) print_diagnostic(Severity::kWarning, w);
    if (!quiet_) {
      for (const InputProblem& p : o.input_problems) print_diagnostic(Severity::kWarning, p.text);
    }
    const std::string where = "[" + std::to_string(k + 1) + "/" + std::to_string(leaves_) + "] " +
                              job.leaf.label() +
                              (ranks_ > 1 ? " (rank " + std::to_string(o.rank) + ")" : "");
    if (o.status != LeafStatus::kCompared) {
      print_diagnostic(Severity::kError, leaf_message(job, o));
      if (!quiet_) std::cout << "dumpcmp: " << where << ": " << leaf_status_name(o.status) << '\n';
      return;
    }
    if (!o.message.empty()) print_diagnostic(Severity::kError, leaf_message(job, o));
    if (quiet_) return;
    std::cout << "dumpcmp: " << where << ": " << o.rows << " rows, " << o.compared << " compared, "
              << o.outside << " outside tolerance, " << o.not_compared << " not compared"
              << (o.resumed ? " (resumed)" : "") << " -> " << out_dir_ << '/' << o.result_file
              << '\n';
  }

  double elapsed() const { return seconds_since(start_); }

 private:
  std::size_t leaves_ = 0;
  int ranks_;
  std::string out_dir_;
  bool quiet_;
  std::chrono::steady_clock::time_point start_;
  ProgressLine progress_;
};

// The run's end on the console; returns the exit code: the first failing leaf's, else 5 with
// --fail-on-threshold when a tensor is outside its tolerance, else 0.
int report_run(const TreeRunResult& r, const CompareCommandOptions& o, bool batch,
               const ConsoleObserver& observer, const Backend& backend, const World& world) {
  if (!o.quiet) {
    std::cout << "dumpcmp: " << r.jobs.size() << " leaves: " << r.compared << " compared, "
              << r.failed << " failed, " << r.without_golden << " without a golden leaf, in "
              << observer.elapsed() << " s on the " << backend.name() << " backend"
              << (world.size() > 1
                      ? " of " + std::to_string(world.size()) + " ranks (" +
                            std::to_string(world.bytes_moved()) + " bytes between ranks)"
                      : "")
              << "\n";
    std::cout << "dumpcmp: summary written to " << o.output_dir << "/summary.csv"
              << (batch ? "" : ", index to " + o.output_dir + "/index.html") << '\n';
    if (!o.hdf5.empty()) std::cout << "dumpcmp: HDF5 written to " << o.hdf5 << '\n';
    if (r.first_divergent) {
      const LeafOutcome& first = r.outcomes[*r.first_divergent];
      std::cout << "dumpcmp: first divergent leaf: " << r.jobs[*r.first_divergent].leaf.label()
                << ", op #" << first.first_index << " " << first.first_op << '\n';
    }
    if (!r.problem_counts.empty()) std::cout << "dumpcmp: " << r.problem_counts << '\n';
  }
  if (r.exit_code == 0 && o.fail_on_threshold && r.outside > 0) {
    return static_cast<int>(ExitCode::kOutsideTolerance);
  }
  return r.exit_code;
}

// Both modes: the run layer's whole run, with the console's view of it.
int run_whole(const CompareOptions& options, const CompareCommandOptions& o, bool batch,
              World& world) {
  TreeRunRequest request;
  request.my_root = o.my_path;
  request.golden_root = o.golden_path;
  request.output_dir = o.output_dir;
  request.batch = batch;
  request.steps = o.steps;
  if (!o.devices.empty()) request.devices = {o.devices};
  request.algorithms = o.algorithms;
  request.thresholds = o.thresholds;
  request.hdf5 = o.hdf5;
  request.advisor = o.advisor;
  request.mirror = o.mirror;
  request.resume = o.resume;
  request.shard_by_device = o.shard_by == "device";
  request.command = command_line();
  const bool quiet = o.quiet || world.rank() != 0;
  BackendSelection selection =
      select_backend(o.device, o.threads, o.device_memory_mb, quiet, world.local_rank());
  ConsoleObserver observer(o.output_dir, quiet, world.size());
  const TreeRunResult result = run_tree(request, options, *selection.backend, observer, world);
  if (world.rank() != 0) return 0;
  return report_run(result, o, batch, observer, *selection.backend, world);
}

}  // namespace

int run_tree_mode(const CompareOptions& options, const CompareCommandOptions& o, World& world) {
  return run_whole(options, o, false, world);
}

int run_batch_mode(const CompareOptions& options, const CompareCommandOptions& o, World& world) {
  if (!o.op_name.empty()) throw Error(ExitCode::kUsage, msg::batch_single_op_refused(o.op_name));
  if (!o.model_explorer.empty() || o.follow) {
    throw Error(ExitCode::kUsage,
                "--model-explorer and --follow work on one model: not in batch "
                "mode");
  }
  return run_whole(options, o, true, world);
}

}  // namespace dumpcmp::cli
