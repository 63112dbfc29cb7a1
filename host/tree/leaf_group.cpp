#include "tree/leaf_group.hpp"

#include <filesystem>

#include "compare/plan_executor.hpp"
#include "core/error.hpp"
#include "fusion/fusion_messages.hpp"
#include "tree/tree_hdf5.hpp"

namespace fs = std::filesystem;

namespace dumpcmp {
namespace {

uint64_t plan_bytes(const ComparePlan& plan) {
  uint64_t bytes = 0;
  for (const PlanRow& r : plan.rows) bytes += r.bytes();
  return bytes;
}

}  // namespace

std::string leaf_output_path(const TreeRunOptions& run, const std::string& relative) {
  const fs::path path = fs::path(run.out_dir) / relative;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  return path.string();
}

LeafFacts leaf_facts(const ComparePlan& plan) {
  LeafFacts facts;
  facts.bytes = plan_bytes(plan);
  facts.rows = static_cast<int64_t>(plan.rows.size());
  facts.dump_match = plan.dump_match;
  facts.warnings = plan.warnings;
  facts.input_problems = plan.input_problems;
  facts.input_op_names = plan.input_op_names;
  return facts;
}

CompareOptions leaf_options(const CompareOptions& base, const TreeJob& job) {
  CompareOptions options = base;
  options.my_path = job.leaf.path;
  options.golden_path = job.golden_path;
  if (!job.fusion_rule.empty()) options.fusion_rule_path = job.fusion_rule;
  return options;
}

std::string result_prefix(const TreeJob& job, const TreeRunOptions& run) {
  if (!run.mirror) return job.stem + "_";
  return job.leaf.relative.empty() ? std::string() : job.leaf.relative + "/";
}

LeafResults::LeafResults(const TreeJob& job, const TreeRunOptions& run, const CompareOptions& base,
                         LeafFacts facts, const ResultTable& table)
    : run_(run), facts_(std::move(facts)), table_(table) {
  result_file_ = result_csv_name(result_prefix(job, run));
  const std::string path = leaf_output_path(run, result_file_);
  csv_ = std::make_unique<CsvSink>(path);
  std::vector<RecordSink*> sinks = {csv_.get(), &analysis_, &values_};
  if (run.advisor) sinks.push_back(&advisor_);
  if (run.hdf5) {
    hdf5_ = std::make_unique<Hdf5Writer>(leaf_hdf5_name(path), true);
    hdf5_->set_attribute("tool", "dumpcmp");
    hdf5_->set_attribute("my_dump_path", job.leaf.path);
    hdf5_->set_attribute("golden_dump_path", job.golden_path);
    hdf5_->set_attribute("fusion_rule_file",
                         job.fusion_rule.empty() ? base.fusion_rule_path : job.fusion_rule);
    hdf5_->set_attribute("result_csv", result_file_);
    sinks.push_back(hdf5_.get());
  }
  sink_ = std::make_unique<TeeSink>(sinks);
  sink_->begin(table_);
}

void LeafResults::add_input_problems(const std::vector<InputProblem>& problems) {
  facts_.input_problems.insert(facts_.input_problems.end(), problems.begin(), problems.end());
}

LeafOutcome LeafResults::finish(const CompareOptions& base) {
  sink_->commit();
  LeafOutcome outcome;
  outcome.status = LeafStatus::kCompared;
  outcome.result_file = result_file_;
  outcome.rows = facts_.rows;
  outcome.outside = analysis_.count(Verdict::kFail);
  outcome.compared = analysis_.count(Verdict::kPass) + outcome.outside;
  outcome.not_compared = analysis_.count(Verdict::kNotCompared);
  outcome.bytes = facts_.bytes;
  outcome.warnings = facts_.warnings;
  outcome.input_problems = facts_.input_problems;
  outcome.values = values_.take();
  const DivergentOp first = analysis_.first_divergent();
  if (first.found) {
    outcome.first_op = first.op;
    outcome.first_index = first.index;
  }
  if (!facts_.dump_match) {
    outcome.exit_code = static_cast<int>(ExitCode::kInput);
    outcome.message = msg::model_does_not_match(base.range, base.select);
  }
  if (run_.advisor && facts_.dump_match) {
    write_advisor_summary(run_.out_dir, advisor_.advise(facts_.input_op_names));
  }
  return outcome;
}

LeafOutcome failed_outcome(ExitCode code, const std::string& message) {
  LeafOutcome outcome;
  outcome.status = LeafStatus::kFailed;
  outcome.exit_code = static_cast<int>(code);
  outcome.message = message;
  return outcome;
}

LeafOutcome failed_outcome(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  return failed_outcome(error ? error->code() : ExitCode::kInternal, e.what());
}

// Hands each record to the sink of the leaf whose rows hold it, with the leaf's own row id.
class LeafGroup::Router final : public RecordSink {
 public:
  explicit Router(const std::vector<Leaf>& leaves) : leaves_(leaves) {}
  void begin(const ResultTable&) override {}
  void write(const CompareRecord& record) override {
    const auto row = static_cast<std::size_t>(record.row);
    while (row >= leaves_[at_].end) ++at_;  // records come in row order
    CompareRecord own = record;
    own.row = static_cast<int64_t>(row - leaves_[at_].begin);
    leaves_[at_].sink->write(own);
  }
  void commit() override {}

 private:
  const std::vector<Leaf>& leaves_;
  std::size_t at_ = 0;
};

bool LeafGroup::accepts(const ComparePlan& plan) const {
  if (leaves_.empty()) return true;
  const TableColumns& a = plan_.columns;
  const TableColumns& b = plan.columns;
  return leaves_.size() < kMaxLeaves && bytes_ + plan_bytes(plan) <= max_bytes_ &&
         plan.metrics == plan_.metrics && a.my_address == b.my_address &&
         a.golden_address == b.golden_address && a.op_sequence == b.op_sequence &&
         a.overflow == b.overflow;
}

void LeafGroup::add(std::size_t k, ComparePlan plan, OpenedDumps opened, RecordSink& sink) {
  if (leaves_.empty()) {
    plan_.metrics = plan.metrics;
    plan_.columns = plan.columns;
  }
  Leaf leaf;
  leaf.k = k;
  leaf.begin = plan_.rows.size();
  leaf.sink = &sink;
  bytes_ += plan_bytes(plan);
  leaf.first_file = static_cast<int32_t>(plan_.files.size());
  opened_.absorb(std::move(opened), append_plan(plan_, std::move(plan)));
  leaf.end = plan_.rows.size();
  leaf.end_file = static_cast<int32_t>(plan_.files.size());
  leaves_.push_back(leaf);
}

std::vector<LeafGroup::LeafRun> LeafGroup::run(Backend& backend, const CompareOptions& base) {
  std::optional<LeafOutcome> failure;
  ExecuteSummary summary;
  try {
    Router router(leaves_);
    summary =
        execute_plan(plan_, 0, plan_.rows.size(), backend, router, execute_options(base), &opened_);
  } catch (const std::exception& e) {
    failure = failed_outcome(e);
  }
  std::vector<LeafRun> runs;
  for (const Leaf& leaf : leaves_) runs.push_back(LeafRun{leaf.k, failure, {}});
  // A problem names its file first ("PATH: ..."): it goes to the first leaf that has the file.
  for (const InputProblem& problem : summary.input_problems) {
    std::size_t owner = 0;
    for (std::size_t i = 0; i < leaves_.size() && owner == 0; ++i) {
      for (int32_t f = leaves_[i].first_file; f < leaves_[i].end_file; ++f) {
        const std::string& path = plan_.files[static_cast<std::size_t>(f)];
        if (problem.text.compare(0, path.size() + 1, path + ":") == 0) {
          owner = i + 1;
          break;
        }
      }
    }
    runs[owner == 0 ? 0 : owner - 1].input_problems.push_back(problem);
  }
  leaves_.clear();
  plan_ = ComparePlan();
  opened_ = OpenedDumps();
  bytes_ = 0;
  return runs;
}

}  // namespace dumpcmp
