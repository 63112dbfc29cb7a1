#pragma once
// What a whole-network compare writes, chosen by the same options for the CLI and Python: the
// result CSV (result_<ts>.csv), and beside it the HDF5 file, the HTML report, the Model Explorer
// files and the advisor's summary. Records go through sink(); finish() writes the rest once the
// run is done. Silent: what to print is in the results (csv_path, analysis, advice).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/compare_engine.hpp"
#include "report/advisor.hpp"
#include "report/csv_writer.hpp"
#include "report/hdf5_writer.hpp"
#include "report/result_analysis.hpp"
#include "report/tee_writer.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

struct LayerGraph;

struct OutputOptions {
  std::string output_dir;      // result_<ts>.csv (and advisor_summary.txt) go here
  std::string hdf5;            // --hdf5 FILE, or empty
  std::string html;            // --html FILE, or empty
  std::string model_explorer;  // --model-explorer DIR (the model is the fusion rule), or empty
  bool advisor = false;        // -advisor
};

// The run as the reports describe it.
struct RunDescription {
  std::string my_path, golden_path, fusion_rule, quant_rule, plan;
  std::string command;  // the command line, or the Python call
};

class RunOutputs {
 public:
  // `extra` sinks (a Python collector) receive the records too, after the files.
  RunOutputs(OutputOptions options, std::vector<RecordSink*> extra = {});

  RecordSink& sink() { return *tee_; }
  const std::string& csv_path() const { return csv_.path(); }
  const ResultAnalysis& analysis() const { return analysis_; }
  // The advisor's finding, once finish() ran with the advisor on and the dumps matched.
  const std::optional<Advice>& advice() const { return advice_; }

  // Commits the records (with the HDF5 file's run attributes), then writes the HTML report, the
  // Model Explorer files (the fusion rule's graph; `original`: the source model, or null) and
  // the advisor's summary. Throws Error naming a file that cannot be written.
  void finish(const CompareSummary& summary, const RunDescription& run, std::string_view backend,
              double seconds, const VerdictRules& rules, const LayerGraph* original = nullptr);

 private:
  OutputOptions options_;
  CsvSink csv_;
  ResultAnalysis analysis_;
  AdvisorSink advisor_;
  std::unique_ptr<Hdf5Writer> hdf5_;
  std::unique_ptr<TeeSink> tee_;
  std::optional<Advice> advice_;
};

}  // namespace dumpcmp
