// The dumpcmp Python module (_dumpcmp, wrapped by python/dumpcmp/__init__.py): the engine the CLI
// runs, reached from Python. Dumps are read into numpy arrays that view the file's mapping; pairs
// of arrays and whole directories are compared by the same backends. Only this file knows Python.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "compare/compare_engine.hpp"
#include "core/directory_lock.hpp"
#include "core/dlpack_dtype.hpp"
#include "core/error.hpp"
#include "io/dump_file.hpp"
#include "layout/layout_plan.hpp"
#include "metrics/metric.hpp"
#include "probe/probe_run.hpp"
#include "probe/probe_steps.hpp"
#include "quantiles/error_quantiles.hpp"
#include "report/csv_writer.hpp"
#include "report/result_table.hpp"
#include "report/tee_writer.hpp"
#include "report/verdict.hpp"
#include "run/network_run.hpp"
#include "run/tree_run.hpp"
#include "scale/world.hpp"
#include "tensor/array_export.hpp"
#include "tensor/tensor_elements.hpp"

namespace nb = nanobind;

namespace dumpcmp {
namespace {

using Array = nb::ndarray<nb::numpy, nb::ro>;

// Each dtype numpy holds as it is, with its DLPack code and width: dumps of these are viewed in
// place, arrays of these are compared as they are.
struct DlpackType {
  DType dtype;
  nb::dlpack::dtype_code code;
  uint8_t bits;
};
constexpr DlpackType kDlpackTypes[] = {
    {DType::kFloat, nb::dlpack::dtype_code::Float, 32},
    {DType::kFloat16, nb::dlpack::dtype_code::Float, 16},
    {DType::kDouble, nb::dlpack::dtype_code::Float, 64},
    {DType::kInt8, nb::dlpack::dtype_code::Int, 8},
    {DType::kInt16, nb::dlpack::dtype_code::Int, 16},
    {DType::kInt32, nb::dlpack::dtype_code::Int, 32},
    {DType::kInt64, nb::dlpack::dtype_code::Int, 64},
    {DType::kUInt8, nb::dlpack::dtype_code::UInt, 8},
    {DType::kUInt16, nb::dlpack::dtype_code::UInt, 16},
    {DType::kUInt32, nb::dlpack::dtype_code::UInt, 32},
    {DType::kUInt64, nb::dlpack::dtype_code::UInt, 64},
    {DType::kBool, nb::dlpack::dtype_code::Bool, 8},
    {DType::kComplex64, nb::dlpack::dtype_code::Complex, 64},
    {DType::kComplex128, nb::dlpack::dtype_code::Complex, 128},
};

// The numpy dtype a payload can be viewed as in place; false for those numpy lacks (bf16, fp8,
// packed sub-byte types), which are decoded.
bool viewable_dtype(DType t, nb::dlpack::dtype& out) {
  for (const DlpackType& d : kDlpackTypes) {
    if (d.dtype != t) continue;
    out = {static_cast<uint8_t>(d.code), d.bits, 1};
    return true;
  }
  return false;
}

// The DType of an array handed in from Python (numpy, or anything with DLPack): the compared
// types (core/dlpack_dtype), bf16 (torch) included, which the engine decodes.
DType dtype_of(const nb::dlpack::dtype& d) {
  if (const std::optional<DType> t = compared_dlpack_dtype(d.code, d.bits, d.lanes)) return *t;
  throw nb::type_error("dumpcmp compares float, int, uint and bool arrays");
}

std::vector<size_t> dims_of(const Shape& shape) { return {shape.begin(), shape.end()}; }

// A numpy array that owns a copy (a decoded or restored tensor).
Array owned_array(std::vector<uint8_t> bytes, DType dtype, const Shape& shape) {
  nb::dlpack::dtype d;
  if (!viewable_dtype(dtype, d)) throw Error(ExitCode::kInternal, "no numpy dtype for a copy");
  auto* owner = new std::vector<uint8_t>(std::move(bytes));
  nb::capsule free(owner, [](void* p) noexcept { delete static_cast<std::vector<uint8_t>*>(p); });
  const std::vector<size_t> dims = dims_of(shape);
  return Array(owner->data(), dims.size(), dims.data(), free, nullptr, d);
}

// One tensor of a dump read from Python: its header fields, and its payload as numpy sees it.
class PyTensor {
 public:
  PyTensor(std::shared_ptr<const DumpFile> file, const TensorInfo* tensor)
      : file_(std::move(file)), t_(tensor) {}

  std::string group() const { return std::string(tensor_group_name(t_->group)); }
  int index() const { return t_->index; }
  std::string dtype() const { return std::string(dtype_wire_name(t_->dtype)); }
  std::string format() const { return std::string(format_name(t_->format)); }
  std::vector<int64_t> shape() const { return t_->shape; }
  std::vector<int64_t> original_shape() const { return t_->original_shape; }
  uint64_t offset() const { return t_->offset; }
  uint64_t size() const { return t_->size; }

  // The payload as it lies in the file: a read-only view of the mapping where numpy has the dtype
  // (the array keeps the mapping alive), else decoded as msaccucmp decodes it (bf16 -> float32).
  Array array() const {
    const ElementSource src = element_source();
    const Shape shape = element_count_matches(src.count) ? t_->shape : Shape{src.count};
    nb::dlpack::dtype d;
    if (viewable_dtype(t_->dtype, d)) {
      auto* keep = new std::shared_ptr<const ByteSource>(file_->bytes);
      nb::capsule owner(keep, [](void* p) noexcept {
        delete static_cast<std::shared_ptr<const ByteSource>*>(p);
      });
      const std::vector<size_t> dims = dims_of(shape);
      return Array(const_cast<uint8_t*>(file_->tensor_data(*t_)), dims.size(), dims.data(), owner,
                   nullptr, d);
    }
    ExportedArray a = export_array(file_->tensor_data(*t_), t_->dtype, src.count);
    return owned_array(std::move(a.owned), a.dtype, shape);
  }

  // The tensor restored from its device layout as msaccucmp's NPU-vs-NPU compare restores it
  // (4-D original shape: NCHW; 2-D/3-D: ND; padding cropped): a copy.
  Array restored() const {
    const ElementSource src = element_source();
    const LayoutPlan plan = plan_npu_restore(*t_, src.count);
    ExportedArray a = export_array(file_->tensor_data(*t_), t_->dtype, plan.map);
    if (a.owned.empty()) a.owned.assign(a.data, a.data + a.bytes);
    return owned_array(std::move(a.owned), a.dtype, plan.result_shape);
  }

 private:
  // The payload checked as the compare checks it; throws naming the file when it is unusable.
  ElementSource element_source() const {
    ElementSource src;
    const ElementCheck check = tensor_element_source(*file_, *t_, src);
    if (!check.error.empty()) throw Error(ExitCode::kInput, file_->path + ": " + check.error);
    return src;
  }
  bool element_count_matches(int64_t count) const {
    return shape_element_count(t_->shape).value_or(-1) == count;
  }
  std::shared_ptr<const DumpFile> file_;
  const TensorInfo* t_;
};

class PyDump {
 public:
  explicit PyDump(const std::string& path)
      : file_(std::make_shared<const DumpFile>(read_dump_file(path))) {}
  std::string path() const { return file_->path; }
  std::string op_name() const { return file_->op_name; }
  uint64_t dump_time() const { return file_->dump_time; }
  std::vector<PyTensor> inputs() const { return tensors(file_->inputs); }
  std::vector<PyTensor> outputs() const { return tensors(file_->outputs); }
  uint64_t mapping_address() const { return reinterpret_cast<uintptr_t>(file_->bytes->data()); }

 private:
  std::vector<PyTensor> tensors(const std::vector<TensorInfo>& list) const {
    std::vector<PyTensor> out;
    for (const TensorInfo& t : list) out.emplace_back(file_, &t);
    return out;
  }
  std::shared_ptr<const DumpFile> file_;
};

std::vector<Metric> selected_metrics(const std::vector<std::string>& names) {
  return names.empty() ? all_metrics() : parse_metric_selection(names);
}

nb::object metric_value(Metric m, const MetricCell& cell) {
  if (m == Metric::kStandardDeviation) {
    return nb::make_tuple(cell.parts[0], cell.parts[1], cell.parts[2], cell.parts[3]);
  }
  return nb::float_(cell.number());
}

// --quantiles' values as {"AbsErrorP50": float, ..., "AbsErrorHistogram": [int, ...], ...}.
void add_quantiles(const PairQuantiles& q, nb::dict& out) {
  for (int m = 0; m < kErrorMeasures; ++m) {
    const std::string measure = kErrorMeasureNames[static_cast<std::size_t>(m)];
    const ErrorDistribution& d = q.measure[m];
    for (std::size_t l = 0; l < kQuantileLevels.size(); ++l) {
      out[(measure + kQuantileLevelNames[l]).c_str()] = d.quantile[l];
    }
    nb::list bins;
    for (int64_t n : d.histogram) bins.append(n);
    out[(measure + "Histogram").c_str()] = bins;
  }
}

// Two arrays of the same size, element by element in C order: {metric name: value}.
nb::dict compare_arrays(nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu> a,
                        nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu> b,
                        const std::vector<std::string>& metric_names, int threads, bool quantiles) {
  if (a.size() != b.size()) {
    throw nb::value_error(("the arrays hold " + std::to_string(a.size()) + " and " +
                           std::to_string(b.size()) + " elements")
                              .c_str());
  }
  const std::vector<Metric> metrics = selected_metrics(metric_names);
  TensorPairJob job;
  job.x = {static_cast<const uint8_t*>(a.data()), dtype_of(a.dtype()),
           static_cast<int64_t>(a.size())};
  job.y = {static_cast<const uint8_t*>(b.data()), dtype_of(b.dtype()),
           static_cast<int64_t>(b.size())};
  job.both_bool = job.x.dtype == DType::kBool && job.y.dtype == DType::kBool;
  for (Metric m : metrics) job.need_kld |= m == Metric::kKullbackLeiblerDivergence;
  Shape shape;
  for (size_t k = 0; k < a.ndim(); ++k) shape.push_back(static_cast<int64_t>(a.shape(k)));
  std::vector<PairStats> stats;
  std::vector<PairQuantiles> distributions;
  {
    nb::gil_scoped_release unlocked;
    const BackendSelection backend = make_backend(DeviceChoice::kCpu, threads);
    backend.backend->reduce({job}, stats);
    if (quantiles) compute_error_quantiles({job}, distributions, threads);
  }
  const PairContext context{shape_is_scalar_type(shape), "", ""};
  nb::dict out;
  for (Metric m : metrics) {
    out[std::string(metric_name(m)).c_str()] = metric_value(m, derive_metric(m, stats[0], context));
  }
  if (quantiles) add_quantiles(distributions.front(), out);
  return out;
}

// Keeps the records of a compare for the DataFrame.
class RecordCollector final : public RecordSink {
 public:
  void begin(const ResultTable& table) override { table_ = std::make_unique<ResultTable>(table); }
  void write(const CompareRecord& record) override {
    cells_.push_back(table_->cells(record));
    records_.push_back(record);
  }
  void commit() override {}

  // {"columns": [...], "data": [[...] per column]}: metric columns as floats, Index as ints, the
  // other cells as text (NaN where msaccucmp prints NaN), a verdict column last.
  nb::dict columns() const {
    const std::vector<std::string> csv_header =
        table_ ? table_->header() : std::vector<std::string>{};
    std::vector<std::string> header = csv_header;
    disambiguate(header, "DataType", "NPUDataType", "GroundTruthDataType");
    disambiguate(header, "Address", "NPUAddress", "GroundTruthAddress");
    nb::list names, data;
    for (size_t c = 0; c < header.size(); ++c) {
      const std::string& name = header[c];
      // A metric column holds numbers, but StandardDeviation keeps msaccucmp's text.
      const int metric = metric_column(csv_header[c]);
      const bool numbers = metric >= 0 && table_->metrics()[static_cast<size_t>(metric)] !=
                                              Metric::kStandardDeviation;
      const QuantileColumn quantile = quantile_column(csv_header[c]);
      nb::list column;
      for (size_t r = 0; r < records_.size(); ++r) {
        const std::string& text = cells_[r][c];
        const std::optional<PairQuantiles>& q = records_[r].quantiles;
        if (numbers) {
          column.append(records_[r].metric(static_cast<size_t>(metric)).number());
        } else if (quantile.measure >= 0) {
          const ErrorDistribution* d = q ? &q->measure[quantile.measure] : nullptr;
          if (quantile.level >= 0) {
            column.append(d ? d->quantile[static_cast<size_t>(quantile.level)] : NAN);
          } else if (d) {
            nb::list bins;
            for (int64_t n : d->histogram) bins.append(n);
            column.append(bins);
          } else {
            column.append(NAN);
          }
        } else if (name == "Index") {
          column.append(records_[r].id.index);
        } else if (text == kNaNText) {
          column.append(NAN);
        } else {
          column.append(text);
        }
      }
      names.append(name);
      data.append(column);
    }
    nb::list verdicts;
    for (const CompareRecord& r : records_) verdicts.append(std::string(verdict_name(r.verdict)));
    names.append("Verdict");
    data.append(verdicts);
    nb::dict out;
    out["columns"] = names;
    out["data"] = data;
    return out;
  }

 private:
  int metric_column(const std::string& name) const {
    const std::vector<Metric>& m = table_->metrics();
    for (size_t k = 0; k < m.size(); ++k) {
      if (metric_name(m[k]) == name) return static_cast<int>(k);
    }
    return -1;
  }
  // A --quantiles column: its error measure and quantile level (-1: the histogram); measure -1
  // for any other column.
  struct QuantileColumn {
    int measure = -1, level = -1;
  };
  QuantileColumn quantile_column(const std::string& name) const {
    if (!table_->columns().quantiles) return {};
    for (int m = 0; m < kErrorMeasures; ++m) {
      const std::string measure = kErrorMeasureNames[static_cast<std::size_t>(m)];
      if (name.rfind(measure, 0) != 0) continue;
      const std::string rest = name.substr(measure.size());
      if (rest == "Histogram") return {m, -1};
      for (std::size_t l = 0; l < kQuantileLevelNames.size(); ++l) {
        if (rest == kQuantileLevelNames[l]) return {m, static_cast<int>(l)};
      }
    }
    return {};
  }
  static void disambiguate(std::vector<std::string>& header, const std::string& name,
                           const std::string& first, const std::string& second) {
    std::vector<size_t> at;
    for (size_t k = 0; k < header.size(); ++k) {
      if (header[k] == name) at.push_back(k);
    }
    if (at.size() != 2) return;
    header[at[0]] = first;
    header[at[1]] = second;
  }
  std::unique_ptr<ResultTable> table_;  // the compare's own is gone when columns() runs
  std::vector<std::vector<std::string>> cells_;
  std::vector<CompareRecord> records_;
};

// The options compare_dirs and compare_tree share, as the CLI's flags of the same names set them.
CompareOptions compare_options(const std::string& fusion_rule, const std::string& quant_rule,
                               const std::vector<std::string>& metric_names, int threads,
                               bool quantiles) {
  CompareOptions options;
  options.quantiles = quantiles;
  options.fusion_rule_path = fusion_rule;
  options.quant_rule_path = quant_rule;
  options.metrics = selected_metrics(metric_names);
  options.threads = threads;
  options.op_sequence_column = false;
  return options;
}

// progress(done, total, bytes) as the engine reports ops finished, called with the GIL held; an
// exception it raises is kept and raised again when the compare returns.
std::function<void(int64_t, int64_t, uint64_t)> python_progress(nb::object callback,
                                                                std::string& raised) {
  if (callback.is_none()) return nullptr;
  return [callback, &raised](int64_t done, int64_t total, uint64_t bytes) {
    nb::gil_scoped_acquire locked;
    if (!raised.empty()) return;
    try {
      callback(done, total, bytes);
    } catch (const nb::python_error& e) {
      raised = e.what();
    }
  };
}

// The options of msprobe's compare from Python's arguments (the mappings: a path, "" for the
// bare flag, None for none).
ProbeRunOptions probe_options(const std::string& npu_path, const std::string& bench_path,
                              const std::string& out, const std::string& data_mapping,
                              const std::optional<std::string>& cell_mapping,
                              const std::optional<std::string>& api_mapping,
                              const std::optional<std::string>& layer_mapping, bool xlsx,
                              int pandas, bool fuzzy_match, int numpy, int threads, bool quantiles,
                              const std::string& config, const std::string& consistent_check) {
  if (pandas != 2 && pandas != 3) throw nb::value_error("pandas is 2 or 3");
  if (!consistent_check.empty() && consistent_check != "fsdp" && consistent_check != "megatron")
    throw nb::value_error("consistent_check is 'fsdp' or 'megatron' (--backend)");
  if (numpy != 1 && numpy != 2) throw nb::value_error("numpy is 1 or 2");
  ProbeRunOptions options;
  options.target_path = npu_path;
  options.golden_path = bench_path;
  options.output_dir = out;
  options.data_mapping = data_mapping;
  options.cell_mapping = cell_mapping;
  options.api_mapping = api_mapping;
  options.layer_mapping = layer_mapping;
  options.xlsx = xlsx;
  options.pandas = pandas;
  options.fuzzy_match = fuzzy_match;
  options.numpy = numpy;
  options.threads = threads;
  options.quantiles = quantiles;
  options.config = config;
  options.consistent_check = !consistent_check.empty();
  options.verl_backend = consistent_check;
  return options;
}

// Where tensor mode's pairs are reduced: --device's names.
DeviceChoice probe_device(const std::string& device) {
  DeviceChoice choice;
  if (!parse_device_choice(device, choice))
    throw nb::value_error(("unknown device '" + device + "'").c_str());
  return choice;
}

// msprobe's compare, as `dumpcmp compare -tp -gp -o OUT [-dm] [-cm] [-am] [-lm] [-fm]` runs it: the
// same files in `out`, and each pair's cells.
nb::dict compare_probe(const std::string& npu_path, const std::string& bench_path,
                       const std::string& out, const std::string& data_mapping,
                       const std::optional<std::string>& cell_mapping,
                       const std::optional<std::string>& api_mapping,
                       const std::optional<std::string>& layer_mapping, bool xlsx, int pandas,
                       bool fuzzy_match, int numpy, const std::string& device, int threads,
                       const std::string& html, const std::string& hdf5, bool quantiles,
                       const std::string& config, const std::string& consistent_check) {
  ProbeRunOptions options = probe_options(npu_path, bench_path, out, data_mapping, cell_mapping,
                                          api_mapping, layer_mapping, xlsx, pandas, fuzzy_match,
                                          numpy, threads, quantiles, config, consistent_check);
  options.command = "python: dumpcmp.compare_probe";
  options.keep_tables = true;
  options.html = html;
  options.hdf5 = hdf5;
  const DeviceChoice choice = probe_device(device);
  ProbeRunResult run;
  {
    nb::gil_scoped_release unlocked;
    const BackendSelection backend = make_backend(choice, threads);
    options.backend = backend.backend.get();
    run = run_probe_compare(options);
  }
  nb::list tables;
  for (ProbeResultTable& table : run.tables) {
    nb::dict t;
    t["pair"] = table.pair;
    t["columns"] = table.header;
    t["rows"] = table.rows;
    tables.append(t);
  }
  nb::dict result;
  result["tables"] = tables;
  result["files"] = run.written;
  result["warnings"] = run.warnings;
  result["log"] = run.log;
  return result;
}

// A whole msprobe run, as `dumpcmp compare -tp -gp --steps [STEPS] [--resume] -o OUT` runs it:
// the same files in `out`, and summary.csv's lines.
nb::dict compare_probe_steps(const std::string& npu_path, const std::string& bench_path,
                             const std::string& out, const std::string& steps, bool resume,
                             const std::string& data_mapping,
                             const std::optional<std::string>& cell_mapping,
                             const std::optional<std::string>& api_mapping,
                             const std::optional<std::string>& layer_mapping, bool xlsx, int pandas,
                             bool fuzzy_match, int numpy, const std::string& device, int threads,
                             bool quantiles, const std::string& config,
                             const std::string& consistent_check) {
  ProbeStepsOptions options;
  options.steps = steps;
  options.resume = resume;
  options.compare = probe_options(npu_path, bench_path, out, data_mapping, cell_mapping,
                                  api_mapping, layer_mapping, xlsx, pandas, fuzzy_match, numpy,
                                  threads, quantiles, config, consistent_check);
  options.compare.command = "python: dumpcmp.compare_probe_steps";
  const DeviceChoice choice = probe_device(device);
  ProbeStepsResult run;
  {
    nb::gil_scoped_release unlocked;
    const BackendSelection backend = make_backend(choice, threads);
    options.compare.backend = backend.backend.get();
    run = run_probe_steps(options);
  }
  nb::list pairs;
  for (const ProbeStepPair& p : run.pairs) {
    nb::dict d;
    d["Step"] = p.step;
    d["Pair"] = p.pair;
    d["Status"] = p.status;
    d["Rows"] = p.rows;
    d["Matched"] = p.matched;
    d["Pass"] = p.rows - p.warnings - p.errors;
    d["Warning"] = p.warnings;
    d["Error"] = p.errors;
    d["FirstError"] = p.first_error;
    d["ResultFile"] = p.result_file;
    d["Message"] = p.message;
    d["Resumed"] = p.resumed;
    pairs.append(d);
  }
  nb::dict result;
  result["pairs"] = pairs;
  result["summary"] = run.summary;
  result["index"] = run.index;
  result["warnings"] = run.warnings;
  return result;
}

// A whole compare, as `dumpcmp compare` runs it; with `out`, result_<ts>.csv is written there too,
// and the reports the CLI's options ask for (run/run_outputs, shared with the CLI).
nb::dict compare_dirs(const std::string& my_path, const std::string& golden_path,
                      const std::string& fusion_rule, const std::string& quant_rule,
                      const std::vector<std::string>& metric_names, const std::string& out,
                      const std::string& device, int threads, nb::object progress, bool quantiles,
                      const std::string& html, const std::string& hdf5, bool advisor,
                      const std::string& model_explorer,
                      const std::vector<std::string>& thresholds) {
  CompareOptions options =
      compare_options(fusion_rule, quant_rule, metric_names, threads, quantiles);
  options.my_path = my_path;
  options.golden_path = golden_path;
  options.overflow_detection = advisor;  // as msaccucmp: the advisor reads OverFlow
  std::string raised;
  options.progress = python_progress(progress, raised);
  DeviceChoice choice;
  if (!parse_device_choice(device, choice)) {
    throw nb::value_error(("unknown device '" + device + "'").c_str());
  }
  if (out.empty() && (!html.empty() || !hdf5.empty() || advisor || !model_explorer.empty())) {
    throw nb::value_error("html, hdf5, advisor and model_explorer are written with out=DIR");
  }
  if (!model_explorer.empty() && fusion_rule.empty()) {
    throw nb::value_error("model_explorer draws the model of fusion_rule: give one");
  }
  NetworkRunRequest request;
  request.outputs = {out, hdf5, html, model_explorer, advisor};
  request.thresholds = thresholds;
  request.description = {my_path,    golden_path, fusion_rule,
                         quant_rule, "",          "python: dumpcmp.compare_dirs"};
  request.cancelled = [&raised] { return !raised.empty(); };
  RecordCollector collector;
  std::optional<DirectoryLock> lock;  // one run per output directory, as the CLI's
  if (!out.empty()) {
    std::filesystem::create_directories(out);
    lock.emplace(out);
  }
  NetworkRunResult run;
  {
    nb::gil_scoped_release unlocked;
    const BackendSelection backend = make_backend(choice, threads);
    const std::unique_ptr<World> world = make_solo_world();
    run = run_network(request, options, *backend.backend, *world, {&collector});
  }
  if (!raised.empty()) throw nb::value_error(("progress callback: " + raised).c_str());
  nb::dict result = collector.columns();
  result["csv"] = run.outputs ? nb::cast(run.outputs->csv_path()) : nb::none();
  nb::list warnings;
  for (const std::string& w : run.summary.warnings) warnings.append(w);
  for (const InputProblem& p : run.problems) warnings.append(p.text);
  result["warnings"] = warnings;
  if (run.outputs && run.outputs->advice()) {
    nb::list advice;
    for (const std::string& line : run.outputs->advice()->lines()) advice.append(line);
    result["advice"] = advice;
  }
  return result;
}

// A whole run, as `dumpcmp compare --tree` runs it: one result CSV per leaf pair in `out`, and
// summary.csv. Returns the summary's columns (counts as ints, empty cells as None).
nb::dict compare_tree(const std::string& my_root, const std::string& golden_root,
                      const std::string& out, const std::string& fusion_rule,
                      const std::string& quant_rule, const std::vector<std::string>& metric_names,
                      const std::string& steps, const std::vector<std::string>& devices,
                      bool resume, const std::string& device, int threads, bool quantiles,
                      const std::string& hdf5, bool advisor, bool mirror,
                      const std::vector<std::string>& thresholds) {
  const CompareOptions options =
      compare_options(fusion_rule, quant_rule, metric_names, threads, quantiles);
  TreeRunRequest request;
  request.my_root = my_root;
  request.golden_root = golden_root;
  request.output_dir = out;
  request.steps = steps;
  request.devices = devices;
  // -alg as the CLI spells it (its default is "all"): the same run resumes from either.
  request.algorithms = metric_names.empty() ? std::vector<std::string>{"all"} : metric_names;
  request.thresholds = thresholds;
  request.hdf5 = hdf5;
  request.advisor = advisor;
  request.mirror = mirror;
  request.resume = resume;
  request.command = "python: dumpcmp.compare_tree";
  DeviceChoice choice;
  if (!parse_device_choice(device, choice)) {
    throw nb::value_error(("unknown device '" + device + "'").c_str());
  }
  // Discovery's warnings, kept for the result.
  struct Warnings final : TreeRunObserver {
    std::vector<std::string> texts;
    void warned(const std::string& warning) override { texts.push_back(warning); }
  } observer;
  TreeRunResult run;
  {
    nb::gil_scoped_release unlocked;
    std::filesystem::create_directories(out);
    const DirectoryLock lock(out);
    const BackendSelection backend = make_backend(choice, threads);
    const std::unique_ptr<World> world = make_solo_world();
    run = run_tree(request, options, *backend.backend, observer, *world);
  }
  std::vector<std::string>& warnings = observer.texts;
  const std::vector<TreeJob>& jobs = run.jobs;
  const std::vector<LeafOutcome>& outcomes = run.outcomes;
  auto text = [](const std::string& s) -> nb::object {
    return s.empty() ? nb::none() : nb::cast(s);
  };
  const std::vector<std::string> names = {"Leaf",
                                          "Device",
                                          "Graph",
                                          "ModelId",
                                          "Step",
                                          "Golden",
                                          "Status",
                                          "Rows",
                                          "Compared",
                                          "OutsideTolerance",
                                          "NotCompared",
                                          "FirstDivergentOp",
                                          "FirstDivergentIndex",
                                          "ResultFile",
                                          "Message"};
  std::vector<nb::list> columns(names.size());
  for (size_t k = 0; k < jobs.size(); ++k) {
    const TreeLeaf& leaf = jobs[k].leaf;
    const LeafOutcome& o = outcomes[k];
    const bool counted = o.status == LeafStatus::kCompared;
    auto count = [counted](int64_t n) -> nb::object { return counted ? nb::cast(n) : nb::none(); };
    const nb::object cells[] = {nb::cast(leaf.relative),
                                text(leaf.device),
                                text(leaf.single_op() ? leaf.op_name : leaf.model_name),
                                text(leaf.model_id),
                                text(leaf.step),
                                text(jobs[k].golden_path),
                                nb::cast(std::string(leaf_status_name(o.status))),
                                count(o.rows),
                                count(o.compared),
                                count(o.outside),
                                count(o.not_compared),
                                text(o.first_op),
                                o.first_op.empty() ? nb::none() : nb::cast(o.first_index),
                                text(o.result_file),
                                text(o.message)};
    for (size_t c = 0; c < names.size(); ++c) columns[c].append(cells[c]);
    for (const std::string& w : o.warnings) warnings.push_back(w);
    for (const InputProblem& p : o.input_problems) warnings.push_back(p.text);
  }
  nb::list column_names, data, warning_list;
  for (size_t c = 0; c < names.size(); ++c) {
    column_names.append(names[c]);
    data.append(columns[c]);
  }
  for (const std::string& w : warnings) warning_list.append(w);
  nb::dict result;
  result["columns"] = column_names;
  result["data"] = data;
  result["summary"] = out + "/summary.csv";
  result["warnings"] = warning_list;
  return result;
}

}  // namespace
}  // namespace dumpcmp

NB_MODULE(_dumpcmp, m) {
  using namespace dumpcmp;
  m.doc() = "dumpcmp's engine: dumps as numpy arrays, array and directory compares";
  static nb::exception<Error> error(m, "Error", PyExc_RuntimeError);

  nb::class_<PyTensor>(m, "Tensor")
      .def_prop_ro("group", &PyTensor::group)
      .def_prop_ro("index", &PyTensor::index)
      .def_prop_ro("dtype", &PyTensor::dtype)
      .def_prop_ro("format", &PyTensor::format)
      .def_prop_ro("shape", &PyTensor::shape)
      .def_prop_ro("original_shape", &PyTensor::original_shape)
      .def_prop_ro("offset", &PyTensor::offset)
      .def_prop_ro("size", &PyTensor::size)
      .def_prop_ro("array", &PyTensor::array, nb::rv_policy::automatic)
      .def("restored", &PyTensor::restored);

  nb::class_<PyDump>(m, "Dump")
      .def(nb::init<const std::string&>(), nb::arg("path"))
      .def_prop_ro("path", &PyDump::path)
      .def_prop_ro("op_name", &PyDump::op_name)
      .def_prop_ro("dump_time", &PyDump::dump_time)
      .def_prop_ro("inputs", &PyDump::inputs)
      .def_prop_ro("outputs", &PyDump::outputs)
      .def_prop_ro("mapping_address", &PyDump::mapping_address);

  m.def("compare_arrays", &compare_arrays, nb::arg("a"), nb::arg("b"), nb::arg("metrics"),
        nb::arg("threads") = 0, nb::arg("quantiles") = false);
  m.def("compare_dirs", &compare_dirs, nb::arg("my_path"), nb::arg("golden_path"),
        nb::arg("fusion_rule"), nb::arg("quant_rule"), nb::arg("metrics"), nb::arg("out"),
        nb::arg("device"), nb::arg("threads"), nb::arg("progress").none() = nb::none(),
        nb::arg("quantiles") = false, nb::arg("html") = "", nb::arg("hdf5") = "",
        nb::arg("advisor") = false, nb::arg("model_explorer") = "",
        nb::arg("thresholds") = std::vector<std::string>{});
  m.def("compare_tree", &compare_tree, nb::arg("my_root"), nb::arg("golden_root"), nb::arg("out"),
        nb::arg("fusion_rule"), nb::arg("quant_rule"), nb::arg("metrics"), nb::arg("steps"),
        nb::arg("devices"), nb::arg("resume"), nb::arg("device"), nb::arg("threads"),
        nb::arg("quantiles") = false, nb::arg("hdf5") = "", nb::arg("advisor") = false,
        nb::arg("mirror") = false, nb::arg("thresholds") = std::vector<std::string>{});
  m.def("compare_probe", &compare_probe, nb::arg("npu_path"), nb::arg("bench_path"), nb::arg("out"),
        nb::arg("data_mapping"), nb::arg("cell_mapping").none(), nb::arg("api_mapping").none(),
        nb::arg("layer_mapping").none(), nb::arg("xlsx") = false, nb::arg("pandas") = 3,
        nb::arg("fuzzy_match") = false, nb::arg("numpy") = 2, nb::arg("device") = "cpu",
        nb::arg("threads") = 0, nb::arg("html") = "", nb::arg("hdf5") = "",
        nb::arg("quantiles") = false, nb::arg("config") = "", nb::arg("consistent_check") = "");
  m.def("compare_probe_steps", &compare_probe_steps, nb::arg("npu_path"), nb::arg("bench_path"),
        nb::arg("out"), nb::arg("steps"), nb::arg("resume"), nb::arg("data_mapping"),
        nb::arg("cell_mapping").none(), nb::arg("api_mapping").none(),
        nb::arg("layer_mapping").none(), nb::arg("xlsx"), nb::arg("pandas"), nb::arg("fuzzy_match"),
        nb::arg("numpy"), nb::arg("device") = "cpu", nb::arg("threads") = 0,
        nb::arg("quantiles") = false, nb::arg("config") = "", nb::arg("consistent_check") = "");
  m.def("version", [] { return std::string(DUMPCMP_VERSION_TEXT); });
}
