#pragma once
// msprobe's -da first-diff analysis (docs/msprobe-compare.md §7.5): each rank's result rows checked
// op by op against the relative-error thresholds (or the md5 result), then the first differing
// node searched over the ranks before, across and after their communication ops.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "probe/probe_compare.hpp"
#include "probe/py_json_dump.hpp"

namespace dumpcmp {

// One op of a rank's check, as the search reads it: whether its outputs agree, its input and output
// rows' NPU statistics (or MD5) and P2POp peer by row name, and its first stack (null without).
struct ProbeOpCheck {
  std::string key;
  bool same = true;
  JsonTree inputs = JsonTree::object(), outputs = JsonTree::object();
  JsonTree stack;
};

struct ProbeRankCheck {
  int rank = 0;
  std::vector<ProbeOpCheck> ops;
};

// One rank's check: writes, op by op through `write`, the text of compare_result_rank<R>_<ts>.json
// ({op key: {"is_same": bool, "op_items": [{column: cell}, ...]}}, json.dump with indent 4) for the
// pair's statistics or md5 table (made with `stacks` when the NPU side has a stack.json), and
// returns the ops. Throws Error(kInput) for a row state msprobe's op batches refuse (a debug
// variable inside an op).
std::vector<ProbeOpCheck> probe_diff_check(
    const ProbeTable& table, const ProbeDump& npu, const ProbeDump& bench, ProbeMode mode,
    const std::map<std::string, std::vector<std::string>>* stacks,
    const std::function<void(std::string_view)>& write);

// The first differing nodes over the ranks' checks, in rank order (a rank given twice: the last):
// {"rank_<R>": [{"op_name", "data_info": {"input": {...}, "output": {...}}, "stack_info"}, ...]};
// nullopt when there is none. `warnings` gets msprobe's warnings (a rank with no ops). Throws
// Error(kInput) for a communication op argument that msprobe cannot read as a rank.
std::optional<JsonTree> probe_first_diff(const std::vector<ProbeRankCheck>& ranks,
                                         std::vector<std::string>& warnings);

}  // namespace dumpcmp
