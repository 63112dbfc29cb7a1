#pragma once
// NPU-vs-NPU pairing without a fusion rule (docs/formats.md §3.4, msaccucmp's compare_npu_vs_npu):
// pure logic over inventories and parsed headers, no I/O.
#include <cstdint>
#include <string>
#include <vector>

#include "io/dump_file.hpp"
#include "io/inventory.hpp"

namespace dumpcmp {

// One result-table "Index": an op name found on the left, the right, or both.
struct OpPairing {
  int64_t index = 0;
  std::string name;
  const OpDumps* left = nullptr;   // null when only the right side has the op
  const OpDumps* right = nullptr;  // null when only the left side has the op
};

// Left ops in the inventory's order (ascending latest timestamp), then right-only ops.
std::vector<OpPairing> pair_ops_by_name(const Inventory& left, const Inventory& right);

// The "only on one side" message msaccucmp writes in the op's single row.
std::string missing_side_message(const OpPairing& op);

struct TensorPairing {
  TensorGroup group = TensorGroup::kInput;
  int index = 0;
};

// Which tensors of one op are compared. A group (inputs or outputs) whose counts differ, that is
// empty, or that has a tensor whose shapes differ is skipped whole; when both groups are skipped
// the op gets one row carrying both messages (op_failed).
struct OpTensorPlan {
  std::vector<TensorPairing> tensors;
  std::vector<std::string> reasons;
  bool op_failed = false;
};

OpTensorPlan pair_op_tensors(const std::string& op_name, const DumpFile& left,
                             const DumpFile& right);

}  // namespace dumpcmp
