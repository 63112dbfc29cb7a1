#include "dumpcmp/engine/result_table.hpp"

namespace dumpcmp {

ResultTable::ResultTable(std::vector<Metric> metrics, bool my_address, bool golden_address)
    : metrics_(std::move(metrics)), my_address_(my_address), golden_address_(golden_address) {}

std::vector<std::string> ResultTable::header() const {
  std::vector<std::string> h = {"Index", "OpType", "NPUDump", "DataType"};
  if (my_address_) h.push_back("Address");
  h.insert(h.end(), {"GroundTruth", "DataType"});
  if (golden_address_) h.push_back("Address");
  h.insert(h.end(), {"TensorIndex", "Shape"});
  for (Metric m : metrics_) h.emplace_back(metric_name(m));
  h.push_back("CompareFailReason");
  return h;
}

std::vector<std::string> ResultTable::identity_cells(const RowIdentity& id) const {
  std::vector<std::string> c = {std::to_string(id.index), id.op_type, id.my_op, id.my_dtype};
  if (my_address_) c.push_back(id.my_address);
  c.insert(c.end(), {id.golden_op, id.golden_dtype});
  if (golden_address_) c.push_back(id.golden_address);
  c.insert(c.end(), {id.tensor_index, id.shape});
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

ResultRow ResultTable::failed_row(const RowIdentity& id, const std::vector<std::string>& reasons) const {
  ResultRow row{identity_cells(id)};
  row.cells.insert(row.cells.end(), metrics_.size(), kNaNText);
  row.cells.push_back(join_reasons(reasons));
  return row;
}

}  // namespace dumpcmp
