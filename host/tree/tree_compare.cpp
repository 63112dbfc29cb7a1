#include "tree/tree_compare.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/timestamp.hpp"
#include "report/csv_writer.hpp"
#include "stats/stats_compare.hpp"
#include "stats/tensor_stats.hpp"
#include "tree/leaf_group.hpp"
#include "tree/run_journal.hpp"
#include "tree/tree_ranks.hpp"

namespace fs = std::filesystem;

namespace dumpcmp {
namespace {

// Result files of this leaf left by an earlier, interrupted attempt (a kill after the CSV was
// published but before the journal line): removed so that the leaf has one result.
void remove_earlier_results(const std::string& out_dir, const std::string& prefix) {
  const fs::path where = fs::path(out_dir) / prefix;
  const std::string stem = prefix.empty() || prefix.back() == '/' ? "" : where.filename().string();
  const fs::path dir = prefix.empty() || prefix.back() == '/' ? where : where.parent_path();
  const std::regex name(std::regex_replace(stem, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                        R"((stats_)?result_\d{14}\.(csv|h5)(\.partial)?)");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (std::regex_match(entry.path().filename().string(), name)) fs::remove(entry.path(), ec);
  }
}

// The tables of a statistics leaf: a statistics side is read once; a tensor-dump side gets its
// statistics computed as the statistics side's writer writes them (docs/statistics.md §9).
std::pair<StatsTable, StatsTable> stats_tables(const std::string& npu_dir,
                                               const std::string& bench_dir) {
  const bool npu_stats = is_stats_directory(npu_dir);
  StatsTable stats = read_stats_path(npu_stats ? npu_dir : bench_dir);
  const std::string& other = npu_stats ? bench_dir : npu_dir;
  StatsTable computed;
  if (is_stats_directory(other)) {
    computed = read_stats_path(other);
  } else {
    TensorStatsOptions options;
    options.flavor = stats_flavor_of(stats);
    computed = stats_from_tensor_dumps(other, options);
  }
  return npu_stats ? std::make_pair(std::move(stats), std::move(computed))
                   : std::make_pair(std::move(computed), std::move(stats));
}

// A statistics leaf (statistic.csv or CANN per-op .csv files on one side at least, statistics or
// tensor dumps on the other): msprobe's statistics compare (docs/statistics.md) into
// <prefix>stats_result_<ts>.csv.
void compare_stats_leaf(const TreeJob& job, const TreeRunOptions& run, LeafOutcome& outcome) {
  const auto [npu, bench] = stats_tables(job.leaf.path, job.golden_path);
  for (const StatsTable* table : {&npu, &bench}) {
    for (const StatsProblem& p : table->problems) outcome.warnings.push_back(p.text());
  }
  const StatsComparison result = compare_stats(npu, bench);
  outcome.result_file = result_prefix(job, run) + "stats_result_" + local_timestamp() + ".csv";
  write_stats_result(leaf_output_path(run, outcome.result_file), npu, bench, result);
  outcome.status = LeafStatus::kCompared;
  outcome.rows = static_cast<int64_t>(result.rows.size());
  outcome.compared = static_cast<int64_t>(result.compared);
  outcome.outside = static_cast<int64_t>(result.outside);
  outcome.not_compared = outcome.rows - outcome.compared;
  if (result.first_divergent) outcome.first_op = result.rows[*result.first_divergent].key;
}

// Statistics on both sides, or statistics against tensor dumps.
bool is_stats_leaf(const TreeJob& job) {
  const bool npu = is_stats_directory(job.leaf.path);
  const bool golden = is_stats_directory(job.golden_path);
  return (npu && golden) || (npu && is_tensor_dump_directory(job.golden_path)) ||
         (golden && is_tensor_dump_directory(job.leaf.path));
}

// The outcome of a leaf that is not run through a plan: no golden leaf, or statistics. nullopt for
// a leaf of tensor dumps.
std::optional<LeafOutcome> compare_without_plan(const TreeJob& job, const TreeRunOptions& run) {
  LeafOutcome outcome;
  if (job.golden_path.empty()) {
    outcome.status = LeafStatus::kNoGolden;
    outcome.exit_code = static_cast<int>(ExitCode::kInput);
    outcome.message = job.leaf.path + ": no golden leaf for " + job.leaf.label();
    return outcome;
  }
  try {
    if (!is_stats_leaf(job)) return std::nullopt;
    compare_stats_leaf(job, run, outcome);
  } catch (const Error& e) {
    outcome.status = LeafStatus::kFailed;
    outcome.exit_code = static_cast<int>(e.code());
    outcome.message = e.what();
  }
  return outcome;
}

// What the journal's key is made of: the settings and every leaf.
std::string journal_key(const std::vector<TreeJob>& jobs, const TreeRunOptions& run) {
  std::string key_text = run.settings;
  for (const TreeJob& j : jobs) {
    key_text += "\n" + j.leaf.path + "\t" + j.golden_path + "\t" + j.fusion_rule + "\t" + j.stem;
  }
  return key_text;
}

// What each leaf is: finished by an earlier run (done), run here only (local: statistics, no
// golden, or done), or run by whichever rank it is dealt to.
struct LeafStates {
  std::vector<const LeafOutcome*> done;
  std::vector<char> local;
};

LeafStates leaf_states(const std::vector<TreeJob>& jobs, const RunJournal& journal,
                       const TreeRunOptions& run, const World& world) {
  LeafStates states{std::vector<const LeafOutcome*>(jobs.size(), nullptr),
                    std::vector<char>(jobs.size(), 0)};
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const TreeJob& job = jobs[k];
    const LeafOutcome* earlier = journal.finished(k, job.stem);
    if (earlier &&
        (earlier->result_file.empty() || fs::exists(run.out_dir + "/" + earlier->result_file))) {
      states.done[k] = earlier;
      states.local[k] = 1;
      continue;
    }
    if (run.resume) remove_earlier_results(run.out_dir, result_prefix(job, run));
    states.local[k] = world.size() > 1 && (job.golden_path.empty() || is_stats_leaf(job));
  }
  return states;
}

}  // namespace

std::string_view leaf_status_name(LeafStatus status) {
  switch (status) {
    case LeafStatus::kCompared:
      return "compared";
    case LeafStatus::kNoGolden:
      return "no golden";
    case LeafStatus::kFailed:
      break;
  }
  return "failed";
}

void make_stems_unique(std::vector<TreeJob>& jobs) {
  std::map<std::string, int> count;
  for (const TreeJob& j : jobs) ++count[j.stem];
  for (TreeJob& j : jobs) {
    if (count[j.stem] > 1 && !j.leaf.model_id.empty()) {
      j.stem = j.leaf.device + "_" + j.leaf.model_name + "_" + j.leaf.model_id + "_" + j.leaf.step;
    }
  }
  std::map<std::string, int> seen;
  for (TreeJob& j : jobs) {
    const int n = seen[j.stem]++;
    if (n > 0) j.stem += "_" + std::to_string(n + 1);
  }
}

std::vector<LeafOutcome> run_tree_compare(const std::vector<TreeJob>& jobs,
                                          const CompareOptions& base, Backend& backend,
                                          const TreeRunOptions& run, TreeObserver& observer,
                                          World& world) {
  RunJournal journal(run.out_dir, run_key(journal_key(jobs, run)), jobs.size(), run.resume);
  const LeafStates states = leaf_states(jobs, journal, run, world);
  const std::vector<const LeafOutcome*>& done = states.done;
  const std::vector<char>& local = states.local;
  const std::vector<int> owner = world.size() > 1
                                     ? deal_leaves(world, jobs, local, base, run.shard_by_device)
                                     : std::vector<int>(jobs.size(), 0);
  if (world.size() > 1) observer.dealt(owner);

  std::vector<std::optional<LeafOutcome>> outcomes(jobs.size());
  uint64_t bytes_done = 0;
  auto finish = [&](std::size_t k, LeafOutcome outcome) {
    bytes_done += outcome.bytes;
    if (!outcome.resumed) journal.record(k, jobs[k].stem, outcome);
    outcomes[k] = std::move(outcome);
    observer.leaf_finished(k, jobs[k], *outcomes[k]);
  };
  RemoteLeaves remote(
      world, jobs, run, base, [&](std::size_t k) { observer.leaf_started(k, jobs[k]); }, finish);
  LeafGroup group(base.batch_bytes);
  std::map<std::size_t, std::unique_ptr<LeafResults>> results;
  auto flush = [&] {
    if (group.empty()) return;
    CompareOptions options = base;
    options.progress = [&observer, first = group.first(), before = bytes_done](
                           int64_t d, int64_t total, uint64_t bytes) {
      observer.progress(first, d, total, before + bytes);
    };
    for (LeafGroup::LeafRun& leaf : group.run(backend, options)) {
      const std::size_t k = leaf.k;
      LeafOutcome outcome;
      try {
        if (leaf.failure) {
          outcome = *leaf.failure;
        } else {
          results.at(k)->add_input_problems(leaf.input_problems);
          outcome = results.at(k)->finish(base);
        }
      } catch (const std::exception& e) {  // its result file cannot be published
        outcome = failed_outcome(e);
      }
      results.erase(k);
      finish(k, std::move(outcome));
    }
    remote.poll(false);
  };
  for (size_t k = 0; k < jobs.size(); ++k) {
    const TreeJob& job = jobs[k];
    if (owner[k] != 0) continue;
    if (done[k]) {
      flush();
      finish(k, *done[k]);
      continue;
    }
    if (std::optional<LeafOutcome> outcome = compare_without_plan(job, run)) {
      flush();
      observer.leaf_started(k, job);
      finish(k, std::move(*outcome));
      continue;
    }
    const CompareOptions options = leaf_options(base, job);
    OpenedDumps opened;
    ComparePlan plan;
    try {
      plan = plan_compare(options, &opened);
    } catch (const std::exception& e) {
      flush();
      observer.leaf_started(k, job);
      finish(k, failed_outcome(e));
      continue;
    }
    if (!group.accepts(plan)) flush();
    observer.leaf_started(k, job);
    try {
      auto leaf = std::make_unique<LeafResults>(job, run, options, leaf_facts(plan), plan.table());
      group.add(k, std::move(plan), std::move(opened), leaf->sink());
      results[k] = std::move(leaf);
    } catch (const std::exception& e) {  // its result file cannot be created
      flush();
      finish(k, failed_outcome(e));
    }
  }
  flush();
  remote.poll(true);
  std::vector<LeafOutcome> all;
  all.reserve(jobs.size());
  for (auto& o : outcomes)
    all.push_back(o ? std::move(*o) : failed_outcome(ExitCode::kInternal, "no rank ran this leaf"));
  return all;
}

void write_tree_summary(const std::string& path, const std::vector<TreeJob>& jobs,
                        const std::vector<LeafOutcome>& outcomes,
                        const std::vector<UnusedRule>& unused_rules) {
  std::string text = csv_defused_row({"Leaf", "Device", "Graph", "ModelId", "Step", "Golden",
                                      "Status", "Rows", "Compared", "OutsideTolerance",
                                      "NotCompared", "FirstDivergentOp", "ResultFile", "Message"});
  for (size_t k = 0; k < jobs.size() && k < outcomes.size(); ++k) {
    const TreeJob& j = jobs[k];
    const LeafOutcome& o = outcomes[k];
    const bool counted = o.status == LeafStatus::kCompared;
    auto count = [counted](int64_t n) { return counted ? std::to_string(n) : std::string(); };
    text += csv_defused_row(
        {j.leaf.relative, j.leaf.device, j.leaf.single_op() ? j.leaf.op_name : j.leaf.model_name,
         j.leaf.model_id, j.leaf.step, j.golden_path, std::string(leaf_status_name(o.status)),
         count(o.rows), count(o.compared), count(o.outside), count(o.not_compared), o.first_op,
         o.result_file, o.message});
  }
  for (const UnusedRule& r : unused_rules) {
    text += csv_defused_row({"", "", r.graphs, "", "", "", "rule file not used", "", "", "", "", "",
                             "", r.rule_file + ": " + r.reason});
  }
  write_file_atomically(path, text);
}

}  // namespace dumpcmp
