#include "probe/probe_live.hpp"

#include <utility>

#include "core/error.hpp"
#include "probe/probe_metrics.hpp"

namespace dumpcmp {

ProbeLiveCompare::ProbeLiveCompare(const std::string& npu_dump_json, int numpy_major)
    : path_(npu_dump_json), numpy_major_(numpy_major), npu_(read_probe_dump(npu_dump_json)) {
  if (is_mindspore(npu_)) {
    throw format_error(path_,
                       "a MindSpore run's dump: a PyTorch run is compared against it as it runs "
                       "only with a dump of a PyTorch run");
  }
  for (const ProbeOp& op : npu_.ops) {
    for (const ProbeRow& row : op.rows) {
      if (row.data_name != "-1") by_data_name_.emplace(row.data_name, &row);
    }
  }
}

bool ProbeLiveCompare::compare(const std::string& data_name, const ProbeArray& bench,
                               const std::function<ProbeSums(const ProbePairJob&)>& reduce) {
  if (by_data_name_.count(data_name) == 0) return false;
  try {
    const ProbeArray npu =
        read_probe_array(probe_data_dir(npu_) + data_name, ProbeDataFormat::kTorch);
    ProbeLivePair pair{data_name, probe_metrics(npu, bench, reduce, numpy_major_), ""};
    const std::lock_guard<std::mutex> lock(mutex_);
    pairs_[data_name] = std::move(pair);
  } catch (const Error& e) {
    if (e.code() != ExitCode::kInput) throw;
    fail(data_name, e.what());  // the file fails its own row
  }
  return true;
}

bool ProbeLiveCompare::fail(const std::string& data_name, const std::string& why) {
  const auto found = by_data_name_.find(data_name);
  if (found == by_data_name_.end()) return false;
  ProbeLivePair pair{data_name, probe_metrics_all("unsupported"),
                     unsupported_row_warning(why, found->second->name)};
  const std::lock_guard<std::mutex> lock(mutex_);
  pairs_[data_name] = std::move(pair);
  return true;
}

ProbeRunResult ProbeLiveCompare::write(std::string bench_dump_json, ProbeRunOptions options) const {
  if (!options.data_mapping.empty() || options.cell_mapping || options.api_mapping ||
      options.layer_mapping || options.fuzzy_match || options.diff_analyze ||
      !options.config.empty() || options.quantiles || options.consistent_check) {
    throw Error(ExitCode::kUsage,
                "a run compared as it runs pairs its rows by name: no mappings, -fm, -da, "
                "--config, --quantiles or --consistent_check");
  }
  options.target_path = path_;
  options.golden_path = "<the bench run, compared as it ran>/dump.json";
  options.numpy = numpy_major_;
  const std::lock_guard<std::mutex> lock(mutex_);
  options.live = &pairs_;
  options.golden_text = &bench_dump_json;
  return run_probe_compare(options);
}

}  // namespace dumpcmp
