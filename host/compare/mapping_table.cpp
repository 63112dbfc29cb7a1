#include "compare/mapping_table.hpp"

#include <filesystem>

#include "compare/compare_scenario.hpp"
#include "compare/fusion_match.hpp"
#include "core/error.hpp"
#include "core/paths.hpp"
#include "fusion/fusion_messages.hpp"

namespace dumpcmp {
namespace {

constexpr const char* kNaN = "NaN";

class MappingTable {
 public:
  MappingTable(const FusionRule& rule, const Inventory& left, const Inventory& right,
               bool quant_left, bool op_sequence, CsvWriter& writer)
      : rule_(rule),
        left_(left),
        right_(right),
        quant_left_(quant_left),
        op_sequence_(op_sequence),
        writer_(writer) {}

  void group(const FusionGroup& group) {
    for (const int i : group.ops) op(group, rule_.ops()[static_cast<size_t>(i)]);
  }
  int64_t rows() const { return rows_; }

 private:
  void op(const FusionGroup& group, const FusionOp& op) {
    const GroupNames names = group_names(rule_, group, op);
    const OpDumps* dumps = quant_left_ ? left_.find(op.name, 0) : left_.find(op.name);
    if (dumps == nullptr) return row(group, op, names, kNaN, kNaN, kNaN);
    const std::string my_path = real_path(dumps->chosen().path);
    DumpFile file;
    try {
      file = read_dump_file(dumps->chosen().path);
    } catch (const Error&) {
      return row(group, op, names, kNaN, my_path, kNaN);
    }
    for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
      if (g == TensorGroup::kInput && skips_input_compare(op)) continue;
      if (g == TensorGroup::kOutput && skips_output_compare(op)) continue;
      for (size_t k = 0; k < file.group(g).size(); ++k) {
        const std::string tensor_id =
            op.name + ":" + std::string(tensor_group_name(g)) + ":" + std::to_string(k);
        GoldenRef ref;
        std::string error;
        const bool found =
            find_golden_file(rule_, right_, op, g, static_cast<int>(k), tensor_id, ref, error);
        row(group, op, names, tensor_id, my_path,
            found ? real_path(ref.dumps->chosen().path) : kNaN);
      }
    }
  }

  void row(const FusionGroup& group, const FusionOp& op, const GroupNames& names,
           const std::string& tensor_id, const std::string& my_path,
           const std::string& golden_path) {
    std::vector<std::string> cells = {std::to_string(group.id)};
    if (op_sequence_) cells.push_back(std::to_string(op.op_sequence));
    cells.insert(cells.end(), {op.type, names.my, names.golden, tensor_id, my_path, golden_path});
    writer_.write_row(cells);
    ++rows_;
  }

  const FusionRule& rule_;
  const Inventory& left_;
  const Inventory& right_;
  bool quant_left_, op_sequence_;
  CsvWriter& writer_;
  int64_t rows_ = 0;
};

}  // namespace

int64_t write_mapping_table(const CompareOptions& options, CsvWriter& writer) {
  if (options.fusion_rule_path.empty() && options.quant_rule_path.empty()) {
    throw Error(ExitCode::kUsage, msg::mapping_needs_rule());
  }
  const FusionInputs inputs = load_fusion_inputs(options);
  const Inventory& left = inputs.left;
  const Inventory& right = inputs.right;
  const CompareScenario scenario = inputs.scenario;
  const FusionRule& rule = inputs.rule;
  const bool op_sequence =
      (!options.range.empty() || !options.select.empty()) && options.op_sequence_column;
  std::string warning;  // the compare prints it; the table is written all the same
  const std::vector<int64_t> groups = selected_groups(rule, options, warning);
  std::vector<std::string> header = {"Index",       "OpSequence",     "OpType",
                                     "NPUDump",     "GroundTruth",    "TensorIndex",
                                     "NPUDumpPath", "GroundTruthPath"};
  if (!op_sequence) header.erase(header.begin() + 1);
  writer.write_row(header);
  MappingTable table(rule, left, right, scenario == CompareScenario::kQuantVsOrigin, op_sequence,
                     writer);
  for (const int64_t id : groups) table.group(rule.groups()[static_cast<size_t>(id)]);
  return table.rows();
}

}  // namespace dumpcmp
