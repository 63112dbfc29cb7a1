// docs/msprobe-compare.md §4.2 (exact matching), §5 (columns and statistics), §6 (Result).
#include "probe/probe_compare.hpp"

#include <sys/stat.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/error.hpp"
#include "probe/probe_array.hpp"
#include "probe/probe_match.hpp"
#include "probe/probe_metrics.hpp"
#include "probe/probe_pandas2.hpp"
#include "probe/probe_quantiles.hpp"
#include "probe/probe_result.hpp"
#include "probe/probe_text.hpp"
#include "probe/probe_verl_match.hpp"
#include "probe/probe_verl_tensor.hpp"
#include "probe/py_value.hpp"
#include "quantiles/quantile_columns.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

const std::string kNotAvailable = "N/A";

std::string or_na(const std::optional<std::string>& text) { return text ? *text : kNotAvailable; }

// How pandas holds one side's four statistics columns: made from one list of rows, they are int64
// when every value is an int, float64 when every value is a number, else objects (§7.2).
enum class ColumnType { kInt, kFloat, kObject };

ColumnType column_type(const std::vector<const std::array<ProbeStat, 4>*>& stats) {
  bool any_float = false;
  for (const std::array<ProbeStat, 4>* row : stats) {
    if (row == nullptr) return ColumnType::kObject;  // "N/A"
    for (const ProbeStat& s : *row) {
      if (s.kind == ProbeStat::Kind::kFloat) {
        any_float = true;
      } else if (s.kind != ProbeStat::Kind::kInt) {
        return ColumnType::kObject;
      }
    }
  }
  return any_float ? ColumnType::kFloat : ColumnType::kInt;
}

// A statistics cell: str() of the value as its column holds it, and what the CSV shows.
struct StatCell {
  const ProbeStat* value = nullptr;  // nullptr: "N/A"
  std::string text;                  // astype(str)
  std::string csv;                   // float infinities get a leading space
};

StatCell stat_cell(const ProbeStat* s, ColumnType type) {
  StatCell cell;
  cell.value = s;
  if (s == nullptr) {
    cell.text = cell.csv = kNotAvailable;
    return cell;
  }
  cell.text = s->kind == ProbeStat::Kind::kInt && type == ColumnType::kFloat
                  ? python_float_repr(s->number)
                  : s->text;
  cell.csv = cell.text;
  if (s->kind == ProbeStat::Kind::kFloat && std::isinf(s->number)) {
    cell.csv = s->number > 0 ? " inf" : " -inf";
  }
  return cell;
}

// What pandas holds in a statistics cell: a bool, a number (NaN statistics are msprobe's text
// "Nan"), or text ("N/A", "None", strings).
ProbeCellKind stat_kind(const StatCell& cell) {
  if (cell.value == nullptr) return ProbeCellKind::kText;
  switch (cell.value->kind) {
    case ProbeStat::Kind::kBool:
      return ProbeCellKind::kBool;
    case ProbeStat::Kind::kInt:
      return ProbeCellKind::kNumber;
    case ProbeStat::Kind::kFloat:
      return std::isnan(cell.value->number) ? ProbeCellKind::kText : ProbeCellKind::kNumber;
    default:
      return ProbeCellKind::kText;
  }
}

bool is_integer_text(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  size_t digits = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  while (i < text.size() && text[i] == ' ') ++i;
  return digits > 0 && i == text.size();
}

enum class ValueClass { kNum, kNan, kInf, kNegInf, kDevice, kNa, kOther };

ValueClass classify(const StatCell& cell) {
  const std::string lower = lower_ascii(cell.text);
  if (lower == "nan") return ValueClass::kNan;
  if (lower == "inf") return ValueClass::kInf;
  if (lower == "-inf") return ValueClass::kNegInf;
  // pandas' to_numeric reads a cell as Python's float() does.
  if (lower != "true" && lower != "false" && parse_python_float(cell.text)) return ValueClass::kNum;
  if (lower.find("npu") != std::string::npos || lower.find("cpu") != std::string::npos ||
      lower.find("cuda") != std::string::npos) {
    return ValueClass::kDevice;
  }
  if (cell.text == kNotAvailable) return ValueClass::kNa;
  return ValueClass::kOther;
}

// CalcStatsDiff.calc_summary_diff for one statistic over the whole table.
void stat_differences(const std::vector<StatCell>& npu, const std::vector<StatCell>& bench,
                      int pandas_major, std::vector<std::string>& diff,
                      std::vector<std::string>& rel) {
  // get_number: pd.to_numeric of the cells' text, exact under pandas 3, not always under 2.
  const auto number = [pandas_major](const std::string& text) {
    return pandas_major == 2 ? pandas2_to_numeric(text) : *parse_python_float(text);
  };
  const size_t n = npu.size();
  diff.assign(n, kNotAvailable);
  rel.assign(n, kNotAvailable);
  bool npu_ints = true, bench_ints = true;  // to_numeric gives int64 columns
  for (size_t i = 0; i < n; ++i) {
    npu_ints = npu_ints && is_integer_text(npu[i].text);
    bench_ints = bench_ints && is_integer_text(bench[i].text);
  }
  for (size_t i = 0; i < n; ++i) {
    if (npu[i].text == bench[i].text) {
      diff[i] = rel[i] = "0";
      continue;
    }
    const ValueClass a = classify(npu[i]), b = classify(bench[i]);
    auto both = [&](const char* text) { diff[i] = rel[i] = text; };
    using V = ValueClass;
    if (a == V::kNa || b == V::kNa) {
      both("N/A");
    } else if (a == V::kNum && b == V::kNum) {
      const double x = number(npu[i].text), y = number(bench[i].text);
      if (npu_ints && bench_ints) {
        // int64 columns subtract as numpy does: wrapping around.
        const int64_t d = static_cast<int64_t>(
            static_cast<uint64_t>(std::strtoll(npu[i].text.c_str(), nullptr, 10)) -
            static_cast<uint64_t>(std::strtoll(bench[i].text.c_str(), nullptr, 10)));
        diff[i] = std::to_string(d);
        rel[i] =
            y != 0 ? python_float_repr(std::fabs(static_cast<double>(d) / y * 100)) + "%" : "inf";
      } else {
        const double d = x - y;
        diff[i] = python_float_repr(d);
        rel[i] = y != 0 ? python_float_repr(std::fabs(d / y * 100)) + "%" : "inf";
      }
    } else if (a == V::kNan || b == V::kNan) {
      const V other = a == V::kNan ? b : a;
      both(other == V::kDevice || other == V::kOther ? "Diff" : "Nan");
    } else if (a == V::kDevice && b == V::kDevice) {
      both("N/A");
    } else if (a == V::kDevice || a == V::kOther || b == V::kDevice || b == V::kOther) {
      both("Diff");
    } else if (a == V::kInf) {
      both("inf");  // against a number or -inf
    } else if (a == V::kNegInf) {
      both("-inf");  // against a number or inf
    } else {
      both(b == V::kInf ? "-inf" : "inf");  // a number against inf / -inf
    }
  }
}

// pandas 2's fillna of the rows without a bench side downcasts each object column of those rows:
// all numbers with a float among them become floats, so an integer statistic there prints as
// one (2.0). pandas 3 leaves them as they are.
void downcast_rows_without_bench(std::vector<StatCell>& cells,
                                 const std::vector<ProbeMatch>& matches) {
  bool any_float = false;
  for (size_t i = 0; i < matches.size(); ++i) {
    if (matches[i].bench != nullptr) continue;
    const ProbeStat* v = cells[i].value;
    const bool is_int = v != nullptr && v->kind == ProbeStat::Kind::kInt;
    const bool is_float =
        v != nullptr && v->kind == ProbeStat::Kind::kFloat && !std::isnan(v->number);
    if (!is_int && !is_float) return;  // a text, bool or NaN cell keeps the column objects
    any_float = any_float || is_float;
  }
  if (!any_float) return;
  for (size_t i = 0; i < matches.size(); ++i) {
    StatCell& cell = cells[i];
    if (matches[i].bench == nullptr && cell.value->kind == ProbeStat::Kind::kInt)
      cell.text = cell.csv = python_float_repr(cell.value->number);
  }
}

std::string python_list_repr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += py_repr_string(items[i]);
  }
  return out + "]";
}

const std::vector<std::string> kBasic = {
    "NPU Name",         "Bench Name",         "NPU Dtype",         "Bench Dtype",
    "NPU Tensor Shape", "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad"};
const std::vector<std::string> kStatsMetrics = {
    "Max diff",       "Min diff",       "Mean diff",       "L2norm diff",
    "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr"};
const std::vector<std::string> kTensorMetrics = {"Cosine",
                                                 "EucDist",
                                                 "MaxAbsErr",
                                                 "MaxRelativeErr",
                                                 "One Thousandth Err Ratio",
                                                 "Five Thousandths Err Ratio"};
const std::vector<std::string> kStatsValues = {"NPU max",    "NPU min",     "NPU mean",
                                               "NPU l2norm", "Bench max",   "Bench min",
                                               "Bench mean", "Bench l2norm"};

}  // namespace

bool probe_number_column(const std::string& column) {
  static const std::unordered_set<std::string> kNumbers = [] {
    std::vector<std::string> quantiles;
    append_quantile_header(quantiles);
    std::unordered_set<std::string> names;
    const std::vector<std::string>* lists[] = {&kStatsMetrics, &kTensorMetrics, &kStatsValues,
                                               &quantiles};
    for (const std::vector<std::string>* columns : lists) {
      for (const std::string& name : *columns) {
        if (name.find("Histogram") == std::string::npos) names.insert(name);
      }
    }
    return names;
  }();
  return kNumbers.count(column) > 0;
}

namespace {

// The Dirty Valid Len of an NPU op (get_valid_len_with_postprocess): for the grouped ops msprobe's
// target-side handlers name, the sum of their group tensor kwarg; -1 (none) for every other op,
// and when that tensor cannot be read or is not of integers.
int64_t dirty_valid_len(const ProbeOp& op, const std::string& npu_dir) {
  static constexpr std::pair<std::string_view, std::string_view> kGroupKwargs[] = {
      {"npu_dequant_swiglu_quant", "group_index"}, {"npu_grouped_matmul", "group_list"}};
  for (const auto& [api, kwarg] : kGroupKwargs) {
    if (op.key.find(api) == std::string::npos) continue;
    for (const ProbeRow& row : op.rows) {
      if (row.name != op.key + ".input." + std::string(kwarg) || row.data_name == "-1") continue;
      try {
        return integer_sum(read_probe_array(npu_dir + row.data_name, ProbeDataFormat::kTorch))
            .value_or(-1);  // msprobe loads .pt files only here
      } catch (const Error&) {
        return -1;  // msprobe logs it and compares the outputs whole
      }
    }
    return -1;
  }
  return -1;
}

// A row's two arrays, read for a reduction, or its cells when they are settled without one.
struct RowTensors {
  std::optional<ProbeMetrics> settled;
  ProbeArray npu, bench;
};

// Reads a row's two arrays as read_real_data does under --consistent_check
// (probe_verl_tensor): the gathered side (FSDP's NPU side, Megatron's bench side) first, its files
// concatenated. Throws Error(kInput) for a file that cannot be read; false, with `why`, where numpy
// refuses a concatenation, which stops msprobe's whole compare of the pair.
bool read_verl_arrays(const ProbeMatch& m, const std::string& npu_dir, const std::string& bench_dir,
                      VerlBackend backend, RowTensors& row, std::string& why) {
  const bool fsdp = backend == VerlBackend::kFsdp;
  std::optional<ProbeArray> gathered = read_verl_side(
      fsdp ? npu_dir : bench_dir, (fsdp ? m.npu : m.bench)->data_name, true, backend, why);
  if (!gathered) return false;
  std::optional<ProbeArray> other = read_verl_side(
      fsdp ? bench_dir : npu_dir, (fsdp ? m.bench : m.npu)->data_name, false, backend, why);
  if (!other) return false;
  (fsdp ? row.npu : row.bench) = std::move(*gathered);
  (fsdp ? row.bench : row.npu) = std::move(*other);
  return true;
}

// CompareRealData.compare_by_op up to the metrics: locate, read (`verl`: --consistent_check's
// backend, or null), clean a grouped op's NPU outputs, post-process (--config), then the tensor
// checks that need no reduction.
RowTensors read_row(const ProbeMatch& m, const std::string& npu_dir, const std::string& bench_dir,
                    std::pair<ProbeDataFormat, ProbeDataFormat> formats, int64_t valid_len,
                    const VerlBackend* verl, const ProbePostprocess* postprocess, int numpy_major,
                    std::vector<std::string>& warnings) {
  RowTensors row;
  if (!m.npu || !m.bench || m.npu->data_name == "-1" || m.bench->data_name == "-1") {
    row.settled = probe_metrics_all("unsupported");
    return row;
  }
  bool concatenated = true;
  std::string refused;
  try {
    if (verl == nullptr) {
      row.npu = read_probe_array(npu_dir + m.npu->data_name, formats.first);
      row.bench = read_probe_array(bench_dir + m.bench->data_name, formats.second);
    } else {
      concatenated = read_verl_arrays(m, npu_dir, bench_dir, *verl, row, refused);
    }
  } catch (const Error& e) {
    warnings.push_back(unsupported_row_warning(e.what(), m.npu->name));
    row.settled = probe_metrics_all("unsupported");
    return row;
  }
  if (!concatenated) {
    throw Error(ExitCode::kInput, "row " + m.npu->name + ": " + refused +
                                      "; msprobe's compare of the pair stops there (no result)");
  }
  if (valid_len != -1 && m.npu->name.find("output") != std::string::npos)
    zero_rows_from(row.npu, valid_len);
  if (postprocess != nullptr) {
    apply_probe_postprocess(*postprocess, m.npu->data_name, m.bench->data_name, row.npu, row.bench,
                            warnings);
  }
  row.settled = settled_probe_metrics(row.npu, row.bench, numpy_major);
  return row;
}

// Rows read and waiting for their reduction: reduced together on the backend once they hold
// kBatchBytes or kBatchRows (the payloads stay mapped until then), their cells then filled in.
class ReductionBatch {
 public:
  // With `quantiles`, each reduced pair's --quantiles distributions too (none where its metrics
  // are N/A), on `threads` host threads.
  ReductionBatch(Backend& backend, std::vector<ProbeMetrics>& metrics,
                 std::vector<std::optional<PairQuantiles>>* quantiles, int threads)
      : backend_(backend),
        metrics_(metrics),
        quantiles_(quantiles),
        threads_(threads),
        order_(host_blas_order()) {}

  void add(std::size_t row, RowTensors tensors) {
    const ProbePairJob job = probe_pair_job(tensors.npu, tensors.bench);
    bytes_ += static_cast<uint64_t>(job.count) *
              (dtype_storage_size(job.npu.dtype) + dtype_storage_size(job.bench.dtype));
    rows_.push_back(row);
    jobs_.push_back(job);
    tensors_.push_back(std::move(tensors));
    if (bytes_ >= kBatchBytes || rows_.size() >= kBatchRows) flush();
  }

  void flush() {
    if (rows_.empty()) return;
    std::vector<ProbeSums> sums;
    {
      // A run's rank pairs may be compared on several threads; a device backend reduces one
      // batch at a time.
      static std::mutex one_at_a_time;
      const std::lock_guard<std::mutex> lock(one_at_a_time);
      backend_.reduce_probe(jobs_, order_, sums);
    }
    for (std::size_t k = 0; k < rows_.size(); ++k) {
      metrics_[rows_[k]] = probe_metrics_from(sums[k]);
      if (quantiles_ != nullptr && sums[k].acc.unmatched_special == 0)
        (*quantiles_)[rows_[k]] = probe_quantiles(jobs_[k], threads_);
    }
    rows_.clear();
    jobs_.clear();
    tensors_.clear();
    bytes_ = 0;
  }

 private:
  static constexpr uint64_t kBatchBytes = uint64_t{64} << 20;
  static constexpr std::size_t kBatchRows = 4096;
  Backend& backend_;
  std::vector<ProbeMetrics>& metrics_;
  std::vector<std::optional<PairQuantiles>>* quantiles_;
  int threads_;
  const BlasOrder order_;
  std::vector<std::size_t> rows_;
  std::vector<ProbePairJob> jobs_;
  std::vector<RowTensors> tensors_;  // keeps the jobs' payloads mapped
  uint64_t bytes_ = 0;
};

// A row of a bench run compared while it ran: the cells computed then, when they were computed
// with the NPU row the match pairs it with.
ProbeMetrics live_metrics(const ProbeMatch& m, const ProbeLivePairs& live,
                          std::vector<std::string>& warnings) {
  if (!m.npu || !m.bench || m.npu->data_name == "-1" || m.bench->data_name == "-1")
    return probe_metrics_all("unsupported");
  const auto pair = live.find(m.bench->data_name);
  if (pair == live.end() || pair->second.npu_data_name != m.npu->data_name) {
    warnings.push_back(m.bench->name + ": not compared with " + m.npu->name +
                       " while the bench run ran (unsupported)");
    return probe_metrics_all("unsupported");
  }
  if (!pair->second.warning.empty()) warnings.push_back(pair->second.warning);
  return pair->second.metrics;
}

}  // namespace

ProbeMode probe_mode(const ProbeDump& npu, const ProbeDump& bench) {
  if (npu.task.empty()) throw format_error(npu.path, "Task for npu is empty, please check.");
  if (bench.task.empty()) throw format_error(bench.path, "Task for bench is empty, please check.");
  if (npu.task != bench.task) {
    throw format_error(npu.path, "Please check the dump task is consistent.");
  }
  if (npu.task == "tensor") return ProbeMode::kTensor;
  if (npu.task != "statistics") {
    throw format_error(npu.path, "Compare applies only to task is tensor or statistics");
  }
  if (npu.has_md5 != bench.has_md5) {
    throw format_error(npu.path,
                       "Please check the dump task is consistent, dump mode of npu and bench "
                       "should both be statistics or md5.");
  }
  return npu.has_md5 ? ProbeMode::kMd5 : ProbeMode::kStatistics;
}

namespace {

// -fm's pairs (§4.3). In statistics mode msprobe 26.2.0 glues each pair's columns one place off:
// an NPU row the walk leaves unmatched stops it ("Length mismatch"), and otherwise every bench
// dtype cell holds the bench shape, so that no pair passes the dtype condition unless the NPU dtype
// reads as that shape (a None argument), whose shifted cells dumpcmp does not reproduce.
std::vector<ProbeMatch> fuzzy_matches(const ProbeDump& npu, const ProbeDump& bench, ProbeMode mode,
                                      const ProbeMatching& matching) {
  std::vector<ProbeMatch> matches = fuzzy_walk(npu, bench, matching);
  for (ProbeMatch& m : matches) {
    if (mode != ProbeMode::kStatistics) {
      m = dtype_checked(m, matching);
      continue;
    }
    if (m.bench == nullptr) {
      throw format_error(npu.path, "-fm leaves " + m.npu->name +
                                       " unmatched, on which msprobe 26.2.0's fuzzy match stops "
                                       "in statistics mode (Length mismatch); no result");
    }
    if (m.npu->dtype.value_or("None") == m.bench->shape.value_or("None")) {
      throw format_error(npu.path, "-fm pairs " + m.npu->name +
                                       ", whose cells msprobe 26.2.0 writes shifted by one column "
                                       "in statistics mode; not reproduced, no result");
    }
    m.bench = nullptr;
  }
  return matches;
}

}  // namespace

ProbeTable compare_probe_dumps(const ProbeDump& npu, const ProbeDump& bench, ProbeMode mode,
                               const std::map<std::string, std::vector<std::string>>* stacks,
                               const ProbeMatching& matching, ProbeFlavor flavor, Backend& backend,
                               const ProbeTensorOptions& tensor) {
  const int pandas_major = flavor.pandas;
  ProbeTable table;
  table.header = kBasic;
  if (mode == ProbeMode::kMd5) {
    table.header.insert(table.header.end(), {"NPU MD5", "BENCH MD5"});
  } else if (mode == ProbeMode::kTensor) {
    table.header.insert(table.header.end(), kTensorMetrics.begin(), kTensorMetrics.end());
    table.header.insert(table.header.end(), kStatsValues.begin(), kStatsValues.end());
  } else {
    table.header.insert(table.header.end(), kStatsMetrics.begin(), kStatsMetrics.end());
    table.header.insert(table.header.end(), kStatsValues.begin(), kStatsValues.end());
  }
  table.header.insert(table.header.end(), {"Requires_grad Consistent", "Result", "Err_message"});
  if (stacks != nullptr) table.header.push_back("NPU_Stack_Info");
  if (mode == ProbeMode::kTensor) table.header.push_back("Data_name");
  const bool quantiles = tensor.quantiles && mode == ProbeMode::kTensor;
  if (quantiles) append_quantile_header(table.header);

  const bool fuzzy = matching.fuzzy && matching.data_mapping == nullptr;
  const ProbeConsistentCheck* consistent = matching.consistent;
  std::shared_ptr<const ProbeConsistentRows> gathered;
  std::vector<ProbeMatch> matches;
  if (consistent != nullptr) {
    gathered =
        std::make_shared<const ProbeConsistentRows>(consistent_rows(npu, bench, *consistent));
    matches = gathered->matches;
    table.owner = gathered;
  } else {
    matches =
        fuzzy ? fuzzy_matches(npu, bench, mode, matching) : match_probe_rows(npu, bench, matching);
  }
  if (matches.empty()) return table;

  std::vector<ProbeMetrics> metrics;
  std::vector<std::optional<PairQuantiles>> distributions(quantiles ? matches.size() : 0);
  if (mode == ProbeMode::kTensor && tensor.live != nullptr) {
    for (const ProbeMatch& m : matches)
      metrics.push_back(live_metrics(m, *tensor.live, table.warnings));
  } else if (mode == ProbeMode::kTensor) {
    const std::string npu_dir = probe_data_dir(npu), bench_dir = probe_data_dir(bench);
    bool dirs_found = true;
    for (const std::string& dir : {npu_dir, bench_dir}) {
      struct stat st {};
      if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        table.warnings.push_back(dir +
                                 ": no such directory: the tensors of this pair are not "
                                 "compared (unsupported)");
        dirs_found = false;
      }
    }
    // -dm merges left: bench-only rows leave the lengths integers. The exact match's outer merge
    // makes them floats, and then nothing is cut (§5.3).
    const bool cut_outputs =
        dirs_found && consistent == nullptr && !has_bench_only_rows(npu, bench, matching);
    // MindSpore's compare reads .npy files (read_npy_data), PyTorch's .pt files; a PyTorch bench
    // of a MindSpore run is read as .pt.
    const ProbeDataFormat npu_format =
        is_mindspore(npu) ? ProbeDataFormat::kNumpy : ProbeDataFormat::kTorch;
    const ProbeDataFormat bench_format =
        matching.cross_framework ? ProbeDataFormat::kTorch : npu_format;
    const ProbeOp* op = nullptr;
    int64_t valid_len = -1;
    metrics.assign(matches.size(), probe_metrics_all("unsupported"));
    ReductionBatch batch(backend, metrics, quantiles ? &distributions : nullptr, tensor.threads);
    for (std::size_t i = 0; dirs_found && i < matches.size(); ++i) {
      const ProbeMatch& m = matches[i];
      if (m.op != op) {
        op = m.op;
        valid_len = cut_outputs ? dirty_valid_len(*op, npu_dir) : -1;
      }
      RowTensors row = read_row(m, npu_dir, bench_dir, {npu_format, bench_format}, valid_len,
                                consistent != nullptr ? &consistent->backend : nullptr,
                                tensor.postprocess, flavor.numpy, table.warnings);
      if (row.settled) {
        metrics[i] = std::move(*row.settled);
      } else {
        batch.add(i, std::move(row));
      }
    }
    batch.flush();
  }

  // The statistics columns, typed as pandas types them, then their differences.
  std::vector<const std::array<ProbeStat, 4>*> npu_stats, bench_stats;
  for (const ProbeMatch& m : matches) {
    npu_stats.push_back(m.npu ? &m.npu->stats : nullptr);
    bench_stats.push_back(m.bench ? &m.bench->stats : nullptr);
  }
  const ColumnType npu_type = column_type(npu_stats), bench_type = column_type(bench_stats);
  std::array<std::vector<StatCell>, 4> npu_cells, bench_cells;
  std::array<std::vector<std::string>, 4> diffs, rels;
  for (size_t k = 0; k < 4; ++k) {
    for (const ProbeMatch& m : matches) {
      npu_cells[k].push_back(stat_cell(m.npu ? &m.npu->stats[k] : nullptr, npu_type));
      bench_cells[k].push_back(stat_cell(m.bench ? &m.bench->stats[k] : nullptr, bench_type));
    }
    if (pandas_major == 2 && consistent == nullptr)
      downcast_rows_without_bench(npu_cells[k], matches);
    if (mode == ProbeMode::kStatistics)
      stat_differences(npu_cells[k], bench_cells[k], pandas_major, diffs[k], rels[k]);
  }

  std::vector<ProbeResultRow> judged;
  judged.reserve(matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    const ProbeMatch& m = matches[i];
    ProbeResultRow r;
    r.op_key = m.op->key;
    r.npu_name = m.npu ? m.npu->name : kNotAvailable;
    r.bench_name = m.bench ? m.bench->name : kNotAvailable;
    // A null argument's dtype and shape: str(None) under pandas 2, a NaN filled as N/A under 3.
    const std::string absent = pandas_major == 2 ? "None" : kNotAvailable;
    r.npu_dtype = m.npu ? m.npu->dtype.value_or(absent) : kNotAvailable;
    r.bench_dtype = m.bench ? m.bench->dtype.value_or(absent) : kNotAvailable;
    r.npu_shape = m.npu ? m.npu->shape.value_or(absent) : kNotAvailable;
    r.bench_shape = m.bench ? m.bench->shape.value_or(absent) : kNotAvailable;
    r.npu_requires_grad = m.npu ? or_na(m.npu->requires_grad) : kNotAvailable;
    r.bench_requires_grad = m.bench ? or_na(m.bench->requires_grad) : kNotAvailable;
    r.npu_max = npu_cells[0][i].value;
    r.npu_min = npu_cells[1][i].value;
    r.bench_max = bench_cells[0][i].value;
    r.bench_min = bench_cells[1][i].value;
    r.norm_relative_err = mode == ProbeMode::kStatistics ? rels[3][i] : "";
    if (mode == ProbeMode::kTensor) {
      r.cosine = metrics[i][0].number;
      r.one_thousandth = metrics[i][4].number;
    }
    r.npu_md5 = !m.npu || m.npu->md5.empty() ? kNotAvailable : m.npu->md5;
    r.bench_md5 = m.bench ? (m.bench->md5.empty() ? kNotAvailable : m.bench->md5) : kNotAvailable;
    if ((fuzzy || consistent != nullptr) && mode == ProbeMode::kMd5) {
      // -fm's and --consistent_check's tables have no md5 columns: NaN, filled with N/A where no
      // bench row was kept.
      r.md5_missing = m.bench != nullptr;
      r.npu_md5 = r.bench_md5 = r.md5_missing ? "" : kNotAvailable;
    }
    judged.push_back(std::move(r));
  }
  judge_probe_rows(judged, mode, consistent != nullptr ? &consistent->backend : nullptr);

  for (size_t i = 0; i < matches.size(); ++i) {
    const ProbeMatch& m = matches[i];
    const ProbeResultRow& r = judged[i];
    std::vector<std::string> row = {r.npu_name,          r.bench_name,         r.npu_dtype,
                                    r.bench_dtype,       r.npu_shape,          r.bench_shape,
                                    r.npu_requires_grad, r.bench_requires_grad};
    std::vector<ProbeCellKind> kinds(row.size(), ProbeCellKind::kText);
    const auto push = [&](std::string cell, ProbeCellKind kind) {
      row.push_back(std::move(cell));
      kinds.push_back(kind);
    };
    const auto push_stats = [&](const std::array<std::vector<StatCell>, 4>& cells) {
      for (size_t k = 0; k < 4; ++k) push(cells[k][i].csv, stat_kind(cells[k][i]));
    };
    if (mode == ProbeMode::kMd5) {
      push(r.npu_md5, ProbeCellKind::kText);
      push(r.bench_md5, ProbeCellKind::kText);
    } else if (mode == ProbeMode::kTensor) {
      for (const ProbeCell& cell : metrics[i]) {
        push(cell.csv(), cell.number ? ProbeCellKind::kNumber : ProbeCellKind::kText);
      }
      push_stats(npu_cells);
      push_stats(bench_cells);
    } else {
      for (size_t k = 0; k < 4; ++k) push(diffs[k][i], ProbeCellKind::kText);
      for (size_t k = 0; k < 4; ++k) push(rels[k][i], ProbeCellKind::kText);
      push_stats(npu_cells);
      push_stats(bench_cells);
    }
    push(r.npu_requires_grad == r.bench_requires_grad ? "True" : "False", ProbeCellKind::kBool);
    push(r.result, ProbeCellKind::kText);
    push(r.err_message, ProbeCellKind::kText);
    if (stacks != nullptr) {
      // The stack goes on the first row of each op (on each of its matches).
      const bool first =
          consistent != nullptr ? gathered->stack_row[i] : m.npu == &m.op->rows.front();
      const auto stack = stacks->find(m.op->key);
      push(first && stack != stacks->end() ? python_list_repr(stack->second) : kNotAvailable,
           ProbeCellKind::kText);
    }
    if (mode == ProbeMode::kTensor) {
      push(python_list_repr({m.npu ? m.npu->data_name : kNotAvailable,
                             m.bench ? m.bench->data_name : kNotAvailable}),
           ProbeCellKind::kText);
    }
    if (quantiles) {
      const std::optional<PairQuantiles>& q = distributions[i];
      const std::vector<std::string> cells = probe_quantile_cells(q ? &*q : nullptr);
      for (std::size_t c = 0; c < cells.size(); ++c) {
        // Per measure its quantiles (numbers), then its histogram (text).
        const bool number = c % (kQuantileLevels.size() + 1) != kQuantileLevels.size();
        push(cells[c], q && number ? ProbeCellKind::kNumber : ProbeCellKind::kText);
      }
    }
    table.rows.push_back(std::move(row));
    table.kinds.push_back(std::move(kinds));
  }
  table.matches = matches;
  return table;
}

}  // namespace dumpcmp
