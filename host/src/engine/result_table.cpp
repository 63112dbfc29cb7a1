#include "dumpcmp/engine/result_table.hpp"

namespace dumpcmp {

ResultTable::ResultTable(std::vector<Metric> metrics, bool my_address, bool golden_address)
    : ResultTable(std::move(metrics), TableColumns{my_address, golden_address, false, false}) {}

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
  for (Metric m : metrics_) h.emplace_back(metric_name(m));
  h.push_back("CompareFailReason");
  return h;
}

std::vector<std::string> ResultTable::identity_cells(const RowIdentity& id) const {
  std::vector<std::string> c = {std::to_string(id.index)};
  if (columns_.op_sequence) c.push_back(std::to_string(id.op_sequence));
  c.insert(c.end(), {id.op_type, id.my_op, id.my_dtype});
  if (columns_.my_address) c.push_back(id.my_address);
  c.insert(c.end(), {id.golden_op, id.golden_dtype});
  if (columns_.golden_address) c.push_back(id.golden_address);
  c.insert(c.end(), {id.tensor_index, id.shape});
  if (columns_.overflow) c.push_back(id.overflow);
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

ResultRow ResultTable::compared_row(const RowIdentity& id, const PairStats& stats,
                                    const PairContext& ctx,
                                    const std::vector<std::string>& preset_reasons) const {
  ResultRow row{identity_cells(id)};
  std::vector<std::string> reasons = preset_reasons;
  for (Metric m : metrics_) {
    MetricCell cell = derive_metric(m, stats, ctx);
    row.cells.push_back(std::move(cell.value));
    if (!cell.reason.empty()) reasons.push_back(std::move(cell.reason));
  }
  row.cells.push_back(join_reasons(reasons));
  return row;
}

ResultRow ResultTable::failed_row(const RowIdentity& id,
                                  const std::vector<std::string>& reasons) const {
  ResultRow row{identity_cells(id)};
  row.cells.insert(row.cells.end(), metrics_.size(), kNaNText);
  row.cells.push_back(join_reasons(reasons));
  return row;
}

}  // namespace dumpcmp
