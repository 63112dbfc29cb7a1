#pragma once
// msprobe's -da first-diff analysis (docs/msprobe-compare.md §7.5): each rank's result rows checked
// op by op against the relative-error thresholds (or the md5 result), then the first differing
// node searched over the ranks before, across and after their communication ops.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "probe/probe_compare.hpp"
#include "probe/py_json_dump.hpp"

namespace dumpcmp {

// One rank's check, as compare_result_rank<R>_<ts>.json holds it: {op key: {"is_same": bool,
// "op_items": [{column: cell}, ...]}}, from the pair's statistics or md5 table (made with `stacks`
// when the NPU side has a stack.json). Throws Error(kInput) for a row state msprobe's op batches
// refuse (a debug variable inside an op).
JsonTree probe_diff_check(const ProbeTable& table, const ProbeDump& npu, const ProbeDump& bench,
                          ProbeMode mode,
                          const std::map<std::string, std::vector<std::string>>* stacks);

// The first differing nodes over the ranks' checks, in rank order: {"rank_<R>": [{"op_name",
// "data_info": {"input": {...}, "output": {...}}, "stack_info"}, ...]}; nullopt when there is none.
// `warnings` gets msprobe's warnings (a rank with no ops). Throws Error(kInput) for a communication
// op argument that msprobe cannot read as a rank.
std::optional<JsonTree> probe_first_diff(const std::vector<std::pair<int, JsonTree>>& ranks,
                                         std::vector<std::string>& warnings);

}  // namespace dumpcmp
