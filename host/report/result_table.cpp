#include "report/result_table.hpp"

#include <charconv>
#include <cmath>

#include "quantiles/quantile_columns.hpp"

namespace dumpcmp {
namespace {

// printf's "%.Nf" (to_chars with a precision is specified to print exactly that), without
// snprintf's format parsing: this runs for every cell of every row.
std::string format_fixed(double v, int precision) {
  char buf[400];  // DBL_MAX in fixed notation: 309 digits, the point, 6 decimals and a sign
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, precision);
  return std::string(buf, r.ptr);
}

// '{:.3f}' after msaccucmp's zeroing of values below 0.001.
std::string format_fixed3(double v) {
  if (std::isnan(v)) return "nan";
  if (std::fabs(v) < 0.001) v = 0.0;
  return format_fixed(v, 3);
}

void quantile_cells(const ErrorDistribution* d, std::vector<std::string>& c) {
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    c.push_back(d ? format_quantile(d->quantile[q]) : kNaNText);
  }
  c.push_back(d ? histogram_text(*d) : kNaNText);
}

}  // namespace

std::string format_quantile(double v) {
  if (std::isnan(v)) return kNaNText;
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string format_fixed6(double v) {
  if (std::isnan(v)) return "nan";
  return format_fixed(v, 6);
}

std::string format_metric_cell(Metric m, const MetricCell& cell) {
  switch (cell.status) {
    case CellStatus::kNotComputed:
      return kNaNText;
    case CellStatus::kLiteralOne:
      return "1.0";
    case CellStatus::kValue:
      break;
  }
  if (m != Metric::kStandardDeviation) return format_fixed6(cell.value);
  const auto& p = cell.parts;
  return "(" + format_fixed3(p[0]) + ";" + format_fixed3(p[1]) + "),(" + format_fixed3(p[2]) + ";" +
         format_fixed3(p[3]) + ")";
}

ResultTable::ResultTable(std::vector<Metric> metrics, const TableColumns& columns)
    : metrics_(std::move(metrics)), columns_(columns) {}

std::vector<std::string> ResultTable::header() const {
  std::vector<std::string> h = {"Index"};
  if (columns_.op_sequence) h.push_back("OpSequence");
  h.insert(h.end(), {"OpType", "NPUDump", "DataType"});
  if (columns_.my_address) h.push_back("Address");
  h.insert(h.end(), {"GroundTruth", "DataType"});
  if (columns_.golden_address) h.push_back("Address");
  h.insert(h.end(), {"TensorIndex", "Shape"});
  if (columns_.overflow) h.push_back("OverFlow");
  std::size_t custom = 0;
  auto custom_before = [&](std::size_t k) {
    for (; custom < columns_.custom.size() && columns_.custom[custom].after <= static_cast<int>(k);
         ++custom) {
      h.push_back(columns_.custom[custom].name);
    }
  };
  for (std::size_t k = 0; k < metrics_.size(); ++k) {
    custom_before(k);
    h.emplace_back(metric_name(metrics_[k]));
  }
  custom_before(metrics_.size());
  if (columns_.quantiles) append_quantile_header(h);
  h.push_back("CompareFailReason");
  return h;
}

std::vector<std::string> ResultTable::cells(const CompareRecord& record) const {
  const RowIdentity& id = record.id;
  std::vector<std::string> c = {std::to_string(id.index)};
  if (columns_.op_sequence) c.push_back(std::to_string(id.op_sequence));
  c.insert(c.end(), {id.op_type, id.my_op, id.my_dtype});
  if (columns_.my_address) c.push_back(id.my_address);
  c.insert(c.end(), {id.golden_op, id.golden_dtype});
  if (columns_.golden_address) c.push_back(id.golden_address);
  c.insert(c.end(), {id.tensor_index, id.shape});
  if (columns_.overflow) c.push_back(id.overflow);
  std::size_t custom = 0;
  auto custom_before = [&](std::size_t k) {
    for (; custom < columns_.custom.size() && columns_.custom[custom].after <= static_cast<int>(k);
         ++custom) {
      c.push_back(custom < record.custom_cells.size() ? record.custom_cells[custom] : kNaNText);
    }
  };
  for (std::size_t k = 0; k < metrics_.size(); ++k) {
    custom_before(k);
    c.push_back(format_metric_cell(metrics_[k], record.metric(k)));
  }
  custom_before(metrics_.size());
  if (columns_.quantiles) {
    const PairQuantiles* q = record.quantiles ? &*record.quantiles : nullptr;
    quantile_cells(q ? &q->of(ErrorMeasure::kAbsolute) : nullptr, c);
    quantile_cells(q ? &q->of(ErrorMeasure::kRelative) : nullptr, c);
  }
  c.push_back(record.fail_reason);
  return c;
}

std::string join_reasons(const std::vector<std::string>& reasons) {
  std::string out;
  for (const std::string& r : reasons) {
    if (r.empty()) continue;
    if (!out.empty()) out += ',';
    out += r;
  }
  return out;
}

}  // namespace dumpcmp
