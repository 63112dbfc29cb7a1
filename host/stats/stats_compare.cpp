#include "stats/stats_compare.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>

#include "core/atomic_file.hpp"
#include "report/csv_writer.hpp"

namespace dumpcmp {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// msprobe's CompareConst.MAGNITUDE: the verdict's limit on max diff / (max + 1e-10).
constexpr double kMagnitude = 0.5;
constexpr double kEpsilon = 1e-10;

// msprobe's statistics_data_check messages (core/compare/npy_compare.py).
constexpr const char* kScalarMessage = "This is type of scalar data, can not compare.\n";
constexpr const char* kShapeMessage = "Tensor shapes do not match.\n";
constexpr const char* kDtypeMessage = "Dtype of NPU and bench Tensor do not match. Skipped.\n";
// dumpcmp's own: msprobe stops with a ValueError on an empty statistics cell.
constexpr const char* kEmptyStatsMessage = "No statistics in the dump (empty stats row).\n";

// np.float32(cell): the double the text reads as, rounded to float32.
float as_float32(const std::optional<double>& value) {
  return static_cast<float>(value.value_or(kNaN));
}

std::array<float, kStatCount> stats_of(const StatsRow* row) {
  if (row == nullptr) return {NAN, NAN, NAN, NAN};
  return {as_float32(row->max), as_float32(row->min), as_float32(row->mean),
          as_float32(row->l2norm)};
}

// For each row of a table, its occurrence number among the rows of its key taken in timestamp
// order (pandas' sort_values("TimeStamp").groupby("Compare Key").cumcount(); ties keep file
// order here, where pandas' quicksort leaves them unspecified).
std::vector<std::size_t> occurrences(const StatsTable& table, std::vector<std::string>& keys) {
  const std::size_t n = table.rows.size();
  keys.resize(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = table.rows[i].key();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return table.rows[a].timestamp < table.rows[b].timestamp;
  });
  std::map<std::string, std::size_t> seen;
  std::vector<std::size_t> occurrence(n);
  for (std::size_t i : order) occurrence[i] = seen[keys[i]]++;
  return occurrence;
}

std::string error_message_of(const StatsRow* npu, const StatsRow* bench) {
  std::string message;
  // A side without a row compares as NaN: never equal, never "falsy".
  const bool npu_scalar = npu != nullptr && npu->shape.empty();
  const bool bench_scalar = bench != nullptr && bench->shape.empty();
  if (npu_scalar || bench_scalar) {
    message += kScalarMessage;
  } else if (npu == nullptr || bench == nullptr || npu->shape != bench->shape) {
    message += kShapeMessage;
  }
  if (npu == nullptr || bench == nullptr || npu->dtype != bench->dtype) message += kDtypeMessage;
  if ((npu != nullptr && npu->stats_empty()) || (bench != nullptr && bench->stats_empty())) {
    message += kEmptyStatsMessage;
  }
  return message;
}

RelativeError relative_error(float diff, float bench, NumpyGeneration numpy) {
  RelativeError out;
  if (bench == 0) {
    out.kind = RelativeError::Kind::kNotApplicable;
    return out;
  }
  const float ratio = diff / bench;
  if (std::isnan(ratio)) {
    out.kind = RelativeError::Kind::kNan;
    return out;
  }
  out.kind = RelativeError::Kind::kPercent;
  if (numpy == NumpyGeneration::kNumpy1) {
    out.percent = std::fabs(static_cast<double>(ratio) * 100.0);  // float32 * int -> float64
  } else {
    out.percent = std::fabs(static_cast<double>(ratio * 100.0f));  // stays float32 (NEP 50)
  }
  return out;
}

StatsVerdict verdict(float max_diff, float npu_max, float bench_max, NumpyGeneration numpy) {
  // Python's max(npu, bench): the first argument unless the second is greater.
  const float larger = bench_max > npu_max ? bench_max : npu_max;
  double magnitude;
  if (numpy == NumpyGeneration::kNumpy1) {
    magnitude = static_cast<double>(max_diff) / (static_cast<double>(larger) + kEpsilon);
  } else {
    magnitude = static_cast<double>(max_diff / (larger + static_cast<float>(kEpsilon)));
  }
  if (std::isnan(npu_max) && std::isnan(bench_max)) magnitude = 0;
  return magnitude <= kMagnitude ? StatsVerdict::kYes : StatsVerdict::kNo;
}

void compare_row(StatsComparedRow& out, const StatsRow* npu, const StatsRow* bench,
                 NumpyGeneration numpy) {
  const std::array<float, kStatCount> n = stats_of(npu), b = stats_of(bench);
  for (std::size_t i = 0; i < kStatCount; ++i) {
    out.npu_stats[i] = n[i];
    out.bench_stats[i] = b[i];
  }
  out.error_message = error_message_of(npu, bench);
  if (!out.error_message.empty()) return;
  out.compared = true;
  std::array<float, kStatCount> diff{};
  for (std::size_t i = 0; i < kStatCount; ++i) {
    diff[i] = n[i] - b[i];
    out.diff[i] = diff[i];
    out.relative[i] = relative_error(diff[i], b[i], numpy);
  }
  out.accuracy = verdict(diff[kStatMax], n[kStatMax], b[kStatMax], numpy);
}

std::string shape_cell(const StatsRow* row, NumpyGeneration numpy) {
  // pandas 2 writes the missing side's NaN through astype(str) as "nan"; pandas 3 keeps it NaN.
  if (row == nullptr) return numpy == NumpyGeneration::kNumpy1 ? "nan" : "";
  std::string shape = row->shape;
  std::replace(shape.begin(), shape.end(), '(', '[');
  std::replace(shape.begin(), shape.end(), ')', ']');
  return csv_defuse(shape);
}

std::string text_cell(const StatsRow* row, const std::string StatsRow::*field) {
  return row == nullptr ? std::string() : csv_defuse(row->*field);
}

std::string file_cell(const StatsRow* row) {
  if (row == nullptr) return std::string();
  return csv_defuse(std::filesystem::absolute(row->file).lexically_normal().string());
}

std::string relative_cell(const RelativeError& e, NumpyGeneration numpy) {
  switch (e.kind) {
    case RelativeError::Kind::kNone:
      return std::string();
    case RelativeError::Kind::kNan:
      return "Nan";
    case RelativeError::Kind::kNotApplicable:
      return "N/A";
    case RelativeError::Kind::kPercent:
      break;
  }
  const std::string number = numpy == NumpyGeneration::kNumpy1
                                 ? python_float_repr(e.percent)
                                 : numpy_float32_str(static_cast<float>(e.percent), numpy);
  return number + "%";
}

// A numeric column as pandas writes it (docs/statistics.md §5): NaN and None empty, +-inf as
// " inf" / " -inf" (msprobe's replace for Excel), the rest as numpy's str() of the float32. Two
// things turn a whole column into float64, printed with repr(): a None (a row not compared: the
// inferred column dtype is float64) and an infinity (the replace leaves an object column of
// Python floats). `values` holds nullopt for None.
void format_numeric_column(std::vector<std::vector<std::string>>& cells, std::size_t column,
                           const std::vector<std::optional<double>>& values,
                           NumpyGeneration numpy) {
  bool as_float64 = false;
  for (const auto& v : values) as_float64 = as_float64 || !v || std::isinf(*v);
  for (std::size_t r = 0; r < values.size(); ++r) {
    std::string& cell = cells[r][column];
    const std::optional<double>& v = values[r];
    if (!v || std::isnan(*v)) {
      cell.clear();
    } else if (std::isinf(*v)) {
      cell = *v > 0 ? " inf" : " -inf";
    } else if (as_float64) {
      cell = python_float_repr(*v);
    } else {
      cell = numpy_float32_str(static_cast<float>(*v), numpy);
    }
  }
}

}  // namespace

StatsComparison compare_stats(const StatsTable& npu, const StatsTable& bench,
                              const StatsCompareOptions& options) {
  std::vector<std::string> npu_keys, bench_keys;
  const std::vector<std::size_t> npu_occ = occurrences(npu, npu_keys);
  const std::vector<std::size_t> bench_occ = occurrences(bench, bench_keys);
  // pandas' outer merge on (key, occurrence): the union of both sides' pairs, sorted.
  std::map<std::pair<std::string, std::size_t>,
           std::pair<std::optional<std::size_t>, std::optional<std::size_t>>>
      merged;
  for (std::size_t i = 0; i < npu.rows.size(); ++i) merged[{npu_keys[i], npu_occ[i]}].first = i;
  for (std::size_t i = 0; i < bench.rows.size(); ++i) {
    merged[{bench_keys[i], bench_occ[i]}].second = i;
  }
  StatsComparison result;
  result.rows.reserve(merged.size());
  std::optional<int64_t> first_time;
  for (const auto& [id, sides] : merged) {
    StatsComparedRow row;
    row.key = id.first;
    row.occurrence = id.second;
    row.npu = sides.first;
    row.bench = sides.second;
    const StatsRow* n = row.npu ? &npu.rows[*row.npu] : nullptr;
    const StatsRow* b = row.bench ? &bench.rows[*row.bench] : nullptr;
    compare_row(row, n, b, options.numpy);
    if (n == nullptr) ++result.bench_only;
    if (b == nullptr) ++result.npu_only;
    if (row.compared) ++result.compared;
    if (row.accuracy == StatsVerdict::kNo) {
      ++result.outside;
      if (!first_time || n->timestamp < *first_time ||
          (n->timestamp == *first_time && *row.npu < *result.rows[*result.first_divergent].npu)) {
        first_time = n->timestamp;
        result.first_divergent = result.rows.size();
      }
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

const std::vector<std::string>& stats_result_header() {
  static const std::vector<std::string> header = {
      "NPU Name",       "Bench Name",       "NPU Dtype",
      "Bench Dtype",    "NPU Tensor Shape", "Bench Tensor Shape",
      "NPU max",        "NPU min",          "NPU mean",
      "NPU l2norm",     "Bench max",        "Bench min",
      "Bench mean",     "Bench l2norm",     "Accuracy Reached or Not",
      "Err_message",    "Max diff",         "Min diff",
      "Mean diff",      "L2norm diff",      "MaxRelativeErr",
      "MinRelativeErr", "MeanRelativeErr",  "NormRelativeErr",
      "NPU CSV File",   "Bench CSV File"};
  return header;
}

std::vector<std::vector<std::string>> stats_result_cells(const StatsTable& npu,
                                                         const StatsTable& bench,
                                                         const StatsComparison& comparison,
                                                         const StatsCompareOptions& options) {
  const NumpyGeneration numpy = options.numpy;
  const std::size_t n_rows = comparison.rows.size();
  std::vector<std::vector<std::string>> cells(
      n_rows, std::vector<std::string>(stats_result_header().size()));
  for (std::size_t r = 0; r < n_rows; ++r) {
    const StatsComparedRow& row = comparison.rows[r];
    const StatsRow* n = row.npu ? &npu.rows[*row.npu] : nullptr;
    const StatsRow* b = row.bench ? &bench.rows[*row.bench] : nullptr;
    std::vector<std::string>& c = cells[r];
    c[0] = n ? csv_defuse(row.key) : std::string();
    c[1] = b ? csv_defuse(row.key) : std::string();
    c[2] = text_cell(n, &StatsRow::dtype);
    c[3] = text_cell(b, &StatsRow::dtype);
    c[4] = shape_cell(n, numpy);
    c[5] = shape_cell(b, numpy);
    c[14] = row.accuracy == StatsVerdict::kYes  ? "Yes"
            : row.accuracy == StatsVerdict::kNo ? "No"
                                                : "";
    c[15] = row.error_message;
    for (std::size_t i = 0; i < kStatCount; ++i) c[20 + i] = relative_cell(row.relative[i], numpy);
    c[24] = file_cell(n);
    c[25] = file_cell(b);
  }
  std::vector<std::optional<double>> values(n_rows);
  for (std::size_t i = 0; i < kStatCount; ++i) {
    for (std::size_t r = 0; r < n_rows; ++r) values[r] = comparison.rows[r].npu_stats[i];
    format_numeric_column(cells, 6 + i, values, numpy);
    for (std::size_t r = 0; r < n_rows; ++r) values[r] = comparison.rows[r].bench_stats[i];
    format_numeric_column(cells, 10 + i, values, numpy);
    for (std::size_t r = 0; r < n_rows; ++r) {
      const StatsComparedRow& row = comparison.rows[r];
      values[r] = row.compared ? std::optional<double>(row.diff[i]) : std::nullopt;
    }
    format_numeric_column(cells, 16 + i, values, numpy);
  }
  return cells;
}

void write_stats_result(const std::string& path, const StatsTable& npu, const StatsTable& bench,
                        const StatsComparison& comparison, const StatsCompareOptions& options) {
  AtomicFile file(path);
  file.write(csv_row(stats_result_header()));
  for (const std::vector<std::string>& row : stats_result_cells(npu, bench, comparison, options)) {
    file.write(csv_row(row));
  }
  file.commit();
}

}  // namespace dumpcmp
