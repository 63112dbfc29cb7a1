#include "tree/tree_compare.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <regex>

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

// One side of a statistics leaf: its statistics table, or the statistics of its tensor dumps
// computed as the other side's writer writes them (docs/statistics.md §9).
StatsTable stats_side(const std::string& dir, const std::string& other_dir) {
  if (is_stats_directory(dir)) return read_stats_path(dir);
  TensorStatsOptions options;
  options.flavor = stats_flavor_of(read_stats_path(other_dir));
  return stats_from_tensor_dumps(dir, options);
}

// A statistics leaf (statistic.csv or CANN per-op .csv files on one side at least, statistics or
// tensor dumps on the other): msprobe's statistics compare (docs/statistics.md) into
// <prefix>stats_result_<ts>.csv.
void compare_stats_leaf(const TreeJob& job, const TreeRunOptions& run, LeafOutcome& outcome) {
  const StatsTable npu = stats_side(job.leaf.path, job.golden_path);
  const StatsTable bench = stats_side(job.golden_path, job.leaf.path);
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

LeafOutcome compare_leaf(const TreeJob& job, const CompareOptions& base, Backend& backend,
                         const TreeRunOptions& run) {
  LeafOutcome outcome;
  if (job.golden_path.empty()) {
    outcome.status = LeafStatus::kNoGolden;
    outcome.exit_code = static_cast<int>(ExitCode::kInput);
    outcome.message = job.leaf.path + ": no golden leaf for " + job.leaf.label();
    return outcome;
  }
  CompareOptions options = base;
  options.my_path = job.leaf.path;
  options.golden_path = job.golden_path;
  if (!job.fusion_rule.empty()) options.fusion_rule_path = job.fusion_rule;
  try {
    if (is_stats_leaf(job)) {
      compare_stats_leaf(job, run, outcome);
      return outcome;
    }
    const std::string result_file =
        result_prefix(job, run) + "result_" + local_timestamp() + ".csv";
    const std::string path = output_path(run, result_file);
    CsvSink csv(path);
    ResultAnalysis analysis;
    AdvisorSink advisor;
    std::vector<RecordSink*> sinks = {&csv, &analysis};
    if (run.advisor) sinks.push_back(&advisor);
    std::unique_ptr<Hdf5Writer> hdf5;
    if (run.hdf5) {
      hdf5 = std::make_unique<Hdf5Writer>(leaf_hdf5_name(path), true);
      hdf5->set_attribute("tool", "dumpcmp");
      hdf5->set_attribute("my_dump_path", options.my_path);
      hdf5->set_attribute("golden_dump_path", options.golden_path);
      hdf5->set_attribute("fusion_rule_file", options.fusion_rule_path);
      hdf5->set_attribute("result_csv", result_file);
      sinks.push_back(hdf5.get());
    }
    TeeSink sink(sinks);
    const CompareSummary summary = run_compare(options, backend, sink);
    sink.commit();
    outcome.status = LeafStatus::kCompared;
    outcome.result_file = result_file;
    outcome.rows = summary.rows;
    outcome.outside = analysis.count(Verdict::kFail);
    outcome.compared = analysis.count(Verdict::kPass) + outcome.outside;
    outcome.not_compared = analysis.count(Verdict::kNotCompared);
    outcome.bytes = summary.bytes;
    outcome.warnings = summary.warnings;
    const DivergentOp first = analysis.first_divergent();
    if (first.found) {
      outcome.first_op = first.op;
      outcome.first_index = first.index;
    }
    if (!summary.dump_match) {
      outcome.exit_code = static_cast<int>(ExitCode::kInput);
      outcome.message = msg::model_does_not_match(base.range, base.select);
    }
    if (run.advisor && summary.dump_match) {
      write_advisor_summary(run.out_dir, advisor.advise(summary.input_op_names));
    }
  } catch (const Error& e) {
    outcome.status = LeafStatus::kFailed;
    outcome.exit_code = static_cast<int>(e.code());
    outcome.message = e.what();
  } catch (const std::exception& e) {
    outcome.status = LeafStatus::kFailed;
    outcome.exit_code = static_cast<int>(ExitCode::kInternal);
    outcome.message = e.what();
  }
  return outcome;
}

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
  for (size_t k = 0; k < jobs.size(); ++k) {
    const TreeJob& job = jobs[k];
    if (const LeafOutcome* done = journal.finished(k, job.stem)) {
      if (done->result_file.empty() || fs::exists(run.out_dir + "/" + done->result_file)) {
        outcomes.push_back(*done);
        bytes_before += done->bytes;
        observer.leaf_finished(k, job, outcomes.back());
        continue;
      }
    }
    if (run.resume) remove_earlier_results(run.out_dir, result_prefix(job, run));
    observer.leaf_started(k, job);
    CompareOptions options = base;
    options.progress = [&observer, k, bytes_before](int64_t done, int64_t total, uint64_t bytes) {
      observer.progress(k, done, total, bytes_before + bytes);
    };
    outcomes.push_back(compare_leaf(job, options, backend, run));
    bytes_before += outcomes.back().bytes;
    journal.record(k, job.stem, outcomes.back());
    observer.leaf_finished(k, job, outcomes.back());
  }
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
