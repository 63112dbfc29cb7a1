#include "report/hdf5_writer.hpp"

#include <cmath>

#include "report/result_table.hpp"

namespace dumpcmp {

namespace {

enum class Source {
  kIndex,
  kOpSequence,
  kOpType,
  kNpuOp,
  kNpuDtype,
  kGoldenOp,
  kGoldenDtype,
  kTensorIndex,
  kShape,
  kOverflow,
  kMetric,
  kQuantile,   // --quantiles: a quantile of an error measure (double)
  kHistogram,  // --quantiles: a histogram bin of an error measure (int64)
  kReason,
  kVerdict
};

}  // namespace

// A record's field and where its value comes from.
struct Hdf5Writer::Field {
  std::string name;
  Source source;
  bool text = true;        // char* (text) or a number
  bool integer = false;    // int64 (Index, OpSequence) rather than double
  std::size_t metric = 0;  // kMetric: which of the table's metrics
  int sd_part = -1;        // StandardDeviation: which of NPU mean, NPU std, golden mean, golden std
  int measure = 0, slot = 0;  // kQuantile / kHistogram: the ErrorMeasure, the level or the bin
};

namespace {

const std::string& text_of(const CompareRecord& r, Source s) {
  const RowIdentity& id = r.id;
  switch (s) {
    case Source::kOpType:
      return id.op_type;
    case Source::kNpuOp:
      return id.my_op;
    case Source::kNpuDtype:
      return id.my_dtype;
    case Source::kGoldenOp:
      return id.golden_op;
    case Source::kGoldenDtype:
      return id.golden_dtype;
    case Source::kTensorIndex:
      return id.tensor_index;
    case Source::kShape:
      return id.shape;
    case Source::kOverflow:
      return id.overflow;
    default:
      return r.fail_reason;
  }
}

}  // namespace

Hdf5Writer::Hdf5Writer(std::string path, bool with_verdict)
    : path_(std::move(path)), with_verdict_(with_verdict) {}

Hdf5Writer::~Hdf5Writer() = default;

void Hdf5Writer::begin(const ResultTable& table) {
  file_ = std::make_unique<Hdf5File>(path_);
  const TableColumns& columns = table.columns();
  fields_ = {{"index", Source::kIndex, false, true}};
  if (columns.op_sequence) fields_.push_back({"op_sequence", Source::kOpSequence, false, true});
  fields_.insert(fields_.end(), {{"op_type", Source::kOpType},
                                 {"npu_op", Source::kNpuOp},
                                 {"npu_dtype", Source::kNpuDtype},
                                 {"golden_op", Source::kGoldenOp},
                                 {"golden_dtype", Source::kGoldenDtype},
                                 {"tensor_index", Source::kTensorIndex},
                                 {"shape", Source::kShape}});
  if (columns.overflow) fields_.push_back({"overflow", Source::kOverflow});
  const std::vector<Metric>& metrics = table.metrics();
  for (std::size_t k = 0; k < metrics.size(); ++k) {
    if (metrics[k] == Metric::kStandardDeviation) {
      static const char* const kParts[] = {"sd_npu_mean", "sd_npu_std", "sd_golden_mean",
                                           "sd_golden_std"};
      for (int p = 0; p < 4; ++p)
        fields_.push_back({kParts[p], Source::kMetric, false, false, k, p});
    } else {
      fields_.push_back({std::string(metric_name(metrics[k])), Source::kMetric, false, false, k});
    }
  }
  if (columns.quantiles) {
    for (int m = 0; m < kErrorMeasures; ++m) {
      const std::string measure = m == 0 ? "abs_error_" : "rel_error_";
      static const char* const kLevels[] = {"p50", "p99", "p99_9"};
      for (int q = 0; q < static_cast<int>(kQuantileLevels.size()); ++q) {
        fields_.push_back({measure + kLevels[q], Source::kQuantile, false, false, 0, -1, m, q});
      }
      for (int b = 0; b < kHistogramBins; ++b) {
        fields_.push_back({measure + "histogram_" + std::to_string(b), Source::kHistogram, false,
                           true, 0, -1, m, b});
      }
    }
  }
  fields_.push_back({"compare_fail_reason", Source::kReason});
  if (with_verdict_) fields_.push_back({"verdict", Source::kVerdict});
  std::vector<Hdf5Field> layout;
  for (const Field& f : fields_) {
    layout.push_back({f.name, f.text      ? Hdf5Kind::kText
                              : f.integer ? Hdf5Kind::kInt64
                                          : Hdf5Kind::kFloat64});
  }
  results_ = &file_->add_table("results", std::move(layout));
}

void Hdf5Writer::write(const CompareRecord& r) {
  Hdf5Table& t = *results_;
  t.begin_row();
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    if (f.text) {
      t.set_text(i, f.source == Source::kVerdict ? std::string(verdict_name(r.verdict))
                                                 : text_of(r, f.source));
    } else if (f.source == Source::kQuantile || f.source == Source::kHistogram) {
      const ErrorDistribution* d = r.quantiles ? &r.quantiles->measure[f.measure] : nullptr;
      const auto slot = static_cast<std::size_t>(f.slot);
      if (f.integer) {
        t.set_integer(i, d ? d->histogram[slot] : 0);
      } else {
        t.set_number(i, d ? d->quantile[slot] : NAN);
      }
    } else if (f.integer) {
      t.set_integer(i, f.source == Source::kIndex ? r.id.index : r.id.op_sequence);
    } else {
      const MetricCell& cell = r.metric(f.metric);
      double v = cell.number();
      if (f.sd_part >= 0) v = cell.computed() ? cell.parts[static_cast<size_t>(f.sd_part)] : NAN;
      t.set_number(i, v);
    }
  }
  t.end_row();
}

void Hdf5Writer::set_attribute(const std::string& name, const std::string& value) {
  attributes_.emplace_back(name, value);
}

void Hdf5Writer::commit() {
  for (const auto& [name, value] : attributes_) file_->set_attribute(name, value);
  file_->commit();
}

}  // namespace dumpcmp
