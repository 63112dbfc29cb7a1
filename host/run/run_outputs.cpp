#include "run/run_outputs.hpp"

#include "explorer/model_explorer.hpp"
#include "fusion/fusion_rule.hpp"
#include "report/html_report.hpp"

namespace dumpcmp {

RunOutputs::RunOutputs(OutputOptions options, std::vector<RecordSink*> extra)
    : options_(std::move(options)), csv_(result_csv_name(options_.output_dir + "/")) {
  std::vector<RecordSink*> sinks = {&csv_, &analysis_, &advisor_};
  if (!options_.hdf5.empty()) {
    hdf5_ = std::make_unique<Hdf5Writer>(options_.hdf5, true);
    sinks.push_back(hdf5_.get());
  }
  sinks.insert(sinks.end(), extra.begin(), extra.end());
  tee_ = std::make_unique<TeeSink>(sinks);
}

void RunOutputs::finish(const CompareSummary& summary, const RunDescription& run,
                        std::string_view backend, double seconds, const VerdictRules& rules,
                        const LayerGraph* original) {
  if (hdf5_) {
    hdf5_->set_attribute("tool", "dumpcmp");
    hdf5_->set_attribute("my_dump_path", run.my_path);
    hdf5_->set_attribute("golden_dump_path", run.golden_path);
    hdf5_->set_attribute("fusion_rule_file", run.fusion_rule);
    hdf5_->set_attribute("quant_fusion_rule_file", run.quant_rule);
    hdf5_->set_attribute("plan", run.plan);
    hdf5_->set_attribute("command", run.command);
    hdf5_->set_attribute("backend", std::string(backend));
    hdf5_->set_attribute("result_csv", csv_.path());
    hdf5_->set_attribute("elapsed_seconds", std::to_string(seconds));
    hdf5_->set_attribute("rows", std::to_string(summary.rows));
    hdf5_->set_attribute("rows_not_compared", std::to_string(summary.failed_rows));
  }
  tee_->commit();
  if (!options_.html.empty()) {
    const RunInfo info{run.my_path, run.golden_path, run.command,  std::string(backend),
                       csv_.path(), seconds,         summary.bytes};
    write_html_report(options_.html, analysis_, rules, info);
  }
  if (!options_.model_explorer.empty()) {
    write_model_explorer(options_.model_explorer, FusionRule::parse_file(run.fusion_rule),
                         analysis_, original);
  }
  if (options_.advisor && summary.dump_match) {
    advice_ = advisor_.advise(summary.input_op_names);
    write_advisor_summary(options_.output_dir, *advice_);
  }
}

}  // namespace dumpcmp
