#include "tree/tree_compare.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>

#include "compare/plan_executor.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/msaccucmp_messages.hpp"
#include "core/timestamp.hpp"
#include "report/advisor.hpp"
#include "report/csv_writer.hpp"
#include "report/hdf5_writer.hpp"
#include "report/result_analysis.hpp"
#include "report/tee_writer.hpp"
#include "stats/stats_compare.hpp"
#include "stats/tensor_stats.hpp"
#include "tree/run_journal.hpp"
#include "tree/tree_hdf5.hpp"

namespace fs = std::filesystem;

namespace dumpcmp {
namespace {

// What comes before "result_<ts>.csv" in a leaf's result path, relative to the output directory.
std::string result_prefix(const TreeJob& job, const TreeRunOptions& run) {
  if (!run.mirror) return job.stem + "_";
  return job.leaf.relative.empty() ? std::string() : job.leaf.relative + "/";
}

// The output path of a leaf's file; its directory is created (--mirror).
std::string output_path(const TreeRunOptions& run, const std::string& relative) {
  const fs::path path = fs::path(run.out_dir) / relative;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  return path.string();
}

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
  write_stats_result(output_path(run, outcome.result_file), npu, bench, result);
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

LeafOutcome failed_outcome(const std::exception& e) {
  LeafOutcome outcome;
  outcome.status = LeafStatus::kFailed;
  const auto* error = dynamic_cast<const Error*>(&e);
  outcome.exit_code = static_cast<int>(error ? error->code() : ExitCode::kInternal);
  outcome.message = e.what();
  return outcome;
}

// Leaves of tensor dumps planned one by one and run as one plan, so that small leaves share the
// executor's batches; each leaf's records go to its own sinks, in plan order.
class LeafGroup {
 public:
  static constexpr std::size_t kMaxLeaves = 64;
  // Leaves past this much payload fill the executor's batches themselves; grouping them measured
  // 7% slower (2 x 10 leaves of 18 MB) than running each alone, while 100 leaves of 10 ops ran
  // in 0.25 s instead of 0.37 s grouped (docs/performance.md).
  static constexpr uint64_t kMaxSmallBytes = 16ull << 20;

  // A group holds at most one executor batch (batch_bytes) of payload, and small leaves only.
  LeafGroup(const TreeRunOptions& run, uint64_t batch_bytes)
      : run_(run), max_bytes_(std::min(batch_bytes, kMaxSmallBytes)) {}

  bool empty() const { return leaves_.empty(); }
  bool accepts(const ComparePlan& plan) const {
    if (leaves_.empty()) return true;
    const TableColumns& a = plan_.columns;
    const TableColumns& b = plan.columns;
    return leaves_.size() < kMaxLeaves && bytes_ + plan_bytes(plan) <= max_bytes_ &&
           plan.metrics == plan_.metrics && a.my_address == b.my_address &&
           a.golden_address == b.golden_address && a.op_sequence == b.op_sequence &&
           a.overflow == b.overflow;
  }

  void add(std::size_t k, const TreeJob& job, const CompareOptions& options, ComparePlan plan,
           OpenedDumps opened) {
    if (leaves_.empty()) {
      plan_.metrics = plan.metrics;
      plan_.columns = plan.columns;
      table_ = std::make_unique<ResultTable>(plan.table());
    }
    auto leaf = std::make_unique<Leaf>();
    leaf->k = k;
    leaf->begin = plan_.rows.size();
    leaf->bytes = plan_bytes(plan);
    leaf->dump_match = plan.dump_match;
    leaf->warnings = std::move(plan.warnings);
    leaf->input_op_names = std::move(plan.input_op_names);
    leaf->result_file = result_prefix(job, run_) + "result_" + local_timestamp() + ".csv";
    const std::string path = output_path(run_, leaf->result_file);
    leaf->csv = std::make_unique<CsvSink>(path);
    std::vector<RecordSink*> sinks = {leaf->csv.get(), &leaf->analysis};
    if (run_.advisor) sinks.push_back(&leaf->advisor);
    if (run_.hdf5) {
      leaf->hdf5 = std::make_unique<Hdf5Writer>(leaf_hdf5_name(path), true);
      leaf->hdf5->set_attribute("tool", "dumpcmp");
      leaf->hdf5->set_attribute("my_dump_path", options.my_path);
      leaf->hdf5->set_attribute("golden_dump_path", options.golden_path);
      leaf->hdf5->set_attribute("fusion_rule_file", options.fusion_rule_path);
      leaf->hdf5->set_attribute("result_csv", leaf->result_file);
      sinks.push_back(leaf->hdf5.get());
    }
    leaf->sink = std::make_unique<TeeSink>(sinks);
    leaf->sink->begin(*table_);
    opened_.absorb(std::move(opened), append_plan(plan_, std::move(plan)));
    leaf->end = plan_.rows.size();
    bytes_ += leaf->bytes;
    leaves_.push_back(std::move(leaf));
  }

  // Runs every row; returns each leaf's outcome with its index, in order.
  std::vector<std::pair<std::size_t, LeafOutcome>> run(Backend& backend, const CompareOptions& base,
                                                       const VerdictRules* rules) {
    std::vector<std::pair<std::size_t, LeafOutcome>> outcomes;
    try {
      ExecuteOptions execute;
      execute.batch_bytes = base.batch_bytes;
      execute.threads = base.threads;
      execute.rules = rules;
      execute.progress = base.progress;
      Router router(leaves_);
      execute_plan(plan_, 0, plan_.rows.size(), backend, router, execute, &opened_);
      for (auto& leaf : leaves_) {
        leaf->sink->commit();
        outcomes.emplace_back(leaf->k, finished(*leaf, base));
      }
    } catch (const std::exception& e) {
      outcomes.clear();
      for (auto& leaf : leaves_) outcomes.emplace_back(leaf->k, failed_outcome(e));
    }
    leaves_.clear();
    plan_ = ComparePlan();
    opened_ = OpenedDumps();
    bytes_ = 0;
    return outcomes;
  }

 private:
  struct Leaf {
    std::size_t k = 0, begin = 0, end = 0;
    uint64_t bytes = 0;
    bool dump_match = true;
    std::vector<std::string> warnings, input_op_names;
    std::string result_file;
    std::unique_ptr<CsvSink> csv;
    ResultAnalysis analysis;
    AdvisorSink advisor;
    std::unique_ptr<Hdf5Writer> hdf5;
    std::unique_ptr<TeeSink> sink;
  };

  // Hands each record to the sinks of the leaf whose rows hold it, with the leaf's own row id.
  class Router final : public RecordSink {
   public:
    explicit Router(std::vector<std::unique_ptr<Leaf>>& leaves) : leaves_(leaves) {}
    void begin(const ResultTable&) override {}
    void write(const CompareRecord& record) override {
      const auto row = static_cast<std::size_t>(record.row);
      while (row >= leaves_[at_]->end) ++at_;  // records come in row order
      CompareRecord own = record;
      own.row = static_cast<int64_t>(row - leaves_[at_]->begin);
      leaves_[at_]->sink->write(own);
    }
    void commit() override {}

   private:
    std::vector<std::unique_ptr<Leaf>>& leaves_;
    std::size_t at_ = 0;
  };

  static uint64_t plan_bytes(const ComparePlan& plan) {
    uint64_t bytes = 0;
    for (const PlanRow& r : plan.rows) bytes += r.bytes();
    return bytes;
  }

  LeafOutcome finished(Leaf& leaf, const CompareOptions& base) const {
    LeafOutcome outcome;
    outcome.status = LeafStatus::kCompared;
    outcome.result_file = leaf.result_file;
    outcome.rows = static_cast<int64_t>(leaf.end - leaf.begin);
    outcome.outside = leaf.analysis.count(Verdict::kFail);
    outcome.compared = leaf.analysis.count(Verdict::kPass) + outcome.outside;
    outcome.not_compared = leaf.analysis.count(Verdict::kNotCompared);
    outcome.bytes = leaf.bytes;
    outcome.warnings = leaf.warnings;
    const DivergentOp first = leaf.analysis.first_divergent();
    if (first.found) {
      outcome.first_op = first.op;
      outcome.first_index = first.index;
    }
    if (!leaf.dump_match) {
      outcome.exit_code = static_cast<int>(ExitCode::kInput);
      outcome.message = msg::model_does_not_match(base.range, base.select);
    }
    if (run_.advisor && leaf.dump_match) {
      write_advisor_summary(run_.out_dir, leaf.advisor.advise(leaf.input_op_names));
    }
    return outcome;
  }

  const TreeRunOptions& run_;
  uint64_t max_bytes_;
  ComparePlan plan_;
  OpenedDumps opened_;
  std::unique_ptr<ResultTable> table_;
  std::vector<std::unique_ptr<Leaf>> leaves_;
  uint64_t bytes_ = 0;
};

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t k = 0; k < cells.size(); ++k) {
    line += (k ? "," : "") + csv_quote(csv_defuse(cells[k]));
  }
  return line + "\n";
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
                                          const TreeRunOptions& run, TreeObserver& observer) {
  std::string key_text = run.settings;
  for (const TreeJob& j : jobs) {
    key_text += "\n" + j.leaf.path + "\t" + j.golden_path + "\t" + j.fusion_rule + "\t" + j.stem;
  }
  RunJournal journal(run.out_dir, run_key(key_text), jobs.size(), run.resume);
  std::vector<LeafOutcome> outcomes;
  outcomes.reserve(jobs.size());
  uint64_t bytes_before = 0;
  auto finish = [&](std::size_t k, LeafOutcome outcome) {
    bytes_before += outcome.bytes;
    if (!outcome.resumed) journal.record(k, jobs[k].stem, outcome);
    outcomes.push_back(std::move(outcome));
    observer.leaf_finished(k, jobs[k], outcomes.back());
  };
  LeafGroup group(run, base.batch_bytes);
  std::size_t group_first = 0;
  auto flush = [&] {
    if (group.empty()) return;
    CompareOptions options = base;
    options.progress = [&observer, group_first, bytes_before](int64_t done, int64_t total,
                                                              uint64_t bytes) {
      observer.progress(group_first, done, total, bytes_before + bytes);
    };
    for (auto& [k, outcome] : group.run(backend, options, base.rules)) finish(k, outcome);
  };
  for (size_t k = 0; k < jobs.size(); ++k) {
    const TreeJob& job = jobs[k];
    if (const LeafOutcome* done = journal.finished(k, job.stem)) {
      if (done->result_file.empty() || fs::exists(run.out_dir + "/" + done->result_file)) {
        flush();
        finish(k, *done);
        continue;
      }
    }
    if (run.resume) remove_earlier_results(run.out_dir, result_prefix(job, run));
    if (std::optional<LeafOutcome> outcome = compare_without_plan(job, run)) {
      flush();
      observer.leaf_started(k, job);
      finish(k, std::move(*outcome));
      continue;
    }
    CompareOptions options = base;
    options.my_path = job.leaf.path;
    options.golden_path = job.golden_path;
    if (!job.fusion_rule.empty()) options.fusion_rule_path = job.fusion_rule;
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
    if (group.empty()) group_first = k;
    observer.leaf_started(k, job);
    try {
      group.add(k, job, options, std::move(plan), std::move(opened));
    } catch (const std::exception& e) {  // its result file cannot be created
      flush();
      finish(k, failed_outcome(e));
    }
  }
  flush();
  return outcomes;
}

void write_tree_summary(const std::string& path, const std::vector<TreeJob>& jobs,
                        const std::vector<LeafOutcome>& outcomes) {
  std::string text = csv_line({"Leaf", "Device", "Graph", "ModelId", "Step", "Golden", "Status",
                               "Rows", "Compared", "OutsideTolerance", "NotCompared",
                               "FirstDivergentOp", "ResultFile", "Message"});
  for (size_t k = 0; k < jobs.size() && k < outcomes.size(); ++k) {
    const TreeJob& j = jobs[k];
    const LeafOutcome& o = outcomes[k];
    const bool counted = o.status == LeafStatus::kCompared;
    auto count = [counted](int64_t n) { return counted ? std::to_string(n) : std::string(); };
    text += csv_line({j.leaf.relative, j.leaf.device,
                      j.leaf.single_op() ? j.leaf.op_name : j.leaf.model_name, j.leaf.model_id,
                      j.leaf.step, j.golden_path, std::string(leaf_status_name(o.status)),
                      count(o.rows), count(o.compared), count(o.outside), count(o.not_compared),
                      o.first_op, o.result_file, o.message});
  }
  write_file_atomically(path, text);
}

}  // namespace dumpcmp
