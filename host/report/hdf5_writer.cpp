#include "report/hdf5_writer.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <deque>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {

namespace {

constexpr hsize_t kChunkRows = 1024;

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

// The record's fields: strings are variable-length (char*), metrics float64.
struct Field {
  std::string name;
  Source source;
  bool text = true;        // char* (text) or a number
  bool integer = false;    // int64 (Index, OpSequence) rather than double
  std::size_t metric = 0;  // kMetric: which of the table's metrics
  int sd_part = -1;        // StandardDeviation: which of NPU mean, NPU std, golden mean, golden std
  int measure = 0, slot = 0;  // kQuantile / kHistogram: the ErrorMeasure, the level or the bin
  size_t offset = 0;
};

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

struct Hdf5Writer::State {
  hid_t file = -1, dataset = -1, type = -1, string_type = -1;
  std::vector<Field> fields;
  size_t record_size = 0;
  std::vector<uint8_t> buffer;    // records waiting for the next flush
  std::deque<std::string> texts;  // the strings those records point at
  hsize_t rows = 0, pending = 0;
};

Hdf5Writer::Hdf5Writer(std::string path, bool with_verdict)
    : path_(std::move(path)), output_(path_), with_verdict_(with_verdict) {}

Hdf5Writer::~Hdf5Writer() {
  if (!state_) return;
  if (state_->dataset >= 0) H5Dclose(state_->dataset);
  if (state_->type >= 0) H5Tclose(state_->type);
  if (state_->string_type >= 0) H5Tclose(state_->string_type);
  if (state_->file >= 0) H5Fclose(state_->file);
}

void Hdf5Writer::begin(const ResultTable& table) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported as Error, not printed
  state_ = std::make_unique<State>();
  State& s = *state_;
  s.file = H5Fcreate(output_.partial().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (s.file < 0)
    throw Error(ExitCode::kInput, output_.partial() + ": cannot create the HDF5 file");
  const TableColumns& columns = table.columns();
  s.fields = {{"index", Source::kIndex, false, true}};
  if (columns.op_sequence) s.fields.push_back({"op_sequence", Source::kOpSequence, false, true});
  s.fields.insert(s.fields.end(), {{"op_type", Source::kOpType},
                                   {"npu_op", Source::kNpuOp},
                                   {"npu_dtype", Source::kNpuDtype},
                                   {"golden_op", Source::kGoldenOp},
                                   {"golden_dtype", Source::kGoldenDtype},
                                   {"tensor_index", Source::kTensorIndex},
                                   {"shape", Source::kShape}});
  if (columns.overflow) s.fields.push_back({"overflow", Source::kOverflow});
  const std::vector<Metric>& metrics = table.metrics();
  for (std::size_t k = 0; k < metrics.size(); ++k) {
    if (metrics[k] == Metric::kStandardDeviation) {
      static const char* const kParts[] = {"sd_npu_mean", "sd_npu_std", "sd_golden_mean",
                                           "sd_golden_std"};
      for (int p = 0; p < 4; ++p)
        s.fields.push_back({kParts[p], Source::kMetric, false, false, k, p});
    } else {
      s.fields.push_back({std::string(metric_name(metrics[k])), Source::kMetric, false, false, k});
    }
  }
  if (columns.quantiles) {
    for (int m = 0; m < kErrorMeasures; ++m) {
      const std::string measure = m == 0 ? "abs_error_" : "rel_error_";
      static const char* const kLevels[] = {"p50", "p99", "p99_9"};
      for (int q = 0; q < static_cast<int>(kQuantileLevels.size()); ++q) {
        s.fields.push_back({measure + kLevels[q], Source::kQuantile, false, false, 0, -1, m, q});
      }
      for (int b = 0; b < kHistogramBins; ++b) {
        s.fields.push_back({measure + "histogram_" + std::to_string(b), Source::kHistogram, false,
                            true, 0, -1, m, b});
      }
    }
  }
  s.fields.push_back({"compare_fail_reason", Source::kReason});
  if (with_verdict_) s.fields.push_back({"verdict", Source::kVerdict});
  s.string_type = H5Tcopy(H5T_C_S1);
  H5Tset_size(s.string_type, H5T_VARIABLE);
  H5Tset_cset(s.string_type, H5T_CSET_UTF8);
  for (Field& f : s.fields) {
    f.offset = s.record_size;
    s.record_size += f.text ? sizeof(char*) : sizeof(double);  // int64 has the same size
  }
  s.type = H5Tcreate(H5T_COMPOUND, s.record_size);
  for (const Field& f : s.fields) {
    H5Tinsert(s.type, f.name.c_str(), f.offset,
              f.text ? s.string_type : (f.integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE));
  }
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = kChunkRows;
  const hid_t space = H5Screate_simple(1, &zero, &unlimited);
  const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(plist, 1, &chunk);
  H5Pset_deflate(plist, 4);
  s.dataset = H5Dcreate2(s.file, "results", s.type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
  H5Pclose(plist);
  H5Sclose(space);
  if (s.dataset < 0)
    throw Error(ExitCode::kInput, output_.partial() + ": cannot create the results dataset");
}

void Hdf5Writer::write(const CompareRecord& r) {
  State& s = *state_;
  const size_t at = s.buffer.size();
  s.buffer.resize(at + s.record_size);
  uint8_t* record = s.buffer.data() + at;
  for (const Field& f : s.fields) {
    if (f.text) {
      s.texts.push_back(f.source == Source::kVerdict ? std::string(verdict_name(r.verdict))
                                                     : text_of(r, f.source));
      const char* p = s.texts.back().c_str();
      std::memcpy(record + f.offset, &p, sizeof p);
    } else if (f.source == Source::kQuantile || f.source == Source::kHistogram) {
      const ErrorDistribution* d = r.quantiles ? &r.quantiles->measure[f.measure] : nullptr;
      const auto slot = static_cast<std::size_t>(f.slot);
      if (f.integer) {
        const int64_t v = d ? d->histogram[slot] : 0;
        std::memcpy(record + f.offset, &v, sizeof v);
      } else {
        const double v = d ? d->quantile[slot] : NAN;
        std::memcpy(record + f.offset, &v, sizeof v);
      }
    } else if (f.integer) {
      const int64_t v = f.source == Source::kIndex ? r.id.index : r.id.op_sequence;
      std::memcpy(record + f.offset, &v, sizeof v);
    } else {
      const MetricCell& cell = r.metric(f.metric);
      double v = cell.number();
      if (f.sd_part >= 0) v = cell.computed() ? cell.parts[static_cast<size_t>(f.sd_part)] : NAN;
      std::memcpy(record + f.offset, &v, sizeof v);
    }
  }
  if (++s.pending == kChunkRows) flush();
}

void Hdf5Writer::flush() {
  State& s = *state_;
  if (s.pending == 0) return;
  const hsize_t size = s.rows + s.pending;
  bool ok = H5Dset_extent(s.dataset, &size) >= 0;
  const hid_t file_space = H5Dget_space(s.dataset);
  const hsize_t start = s.rows, count = s.pending;
  ok = ok && H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &count, nullptr) >= 0;
  const hid_t memory = H5Screate_simple(1, &count, nullptr);
  ok = ok && H5Dwrite(s.dataset, s.type, memory, file_space, H5P_DEFAULT, s.buffer.data()) >= 0;
  H5Sclose(memory);
  H5Sclose(file_space);
  ok = ok && H5Fflush(s.file, H5F_SCOPE_LOCAL) >= 0;  // finished rows survive an interruption
  if (!ok) throw Error(ExitCode::kInput, output_.partial() + ": cannot append rows");
  s.rows = size;
  s.pending = 0;
  s.buffer.clear();
  s.texts.clear();
}

void Hdf5Writer::set_attribute(const std::string& name, const std::string& value) {
  attributes_.emplace_back(name, value);
}

void Hdf5Writer::commit() {
  flush();
  State& s = *state_;
  for (const auto& [name, value] : attributes_) {
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.size() + 1);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t attr = H5Acreate2(s.file, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    const bool ok = attr >= 0 && H5Awrite(attr, type, value.c_str()) >= 0;
    if (attr >= 0) H5Aclose(attr);
    H5Tclose(type);
    H5Sclose(space);
    if (!ok)
      throw Error(ExitCode::kInput, output_.partial() + ": cannot write the attribute " + name);
  }
  H5Dclose(s.dataset);
  H5Tclose(s.type);
  H5Tclose(s.string_type);
  const bool closed = H5Fclose(s.file) >= 0;
  state_.reset();
  if (!closed) throw Error(ExitCode::kInput, path_ + ": cannot finish the HDF5 file");
  output_.publish();
}

}  // namespace dumpcmp
