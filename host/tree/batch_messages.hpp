#pragma once
// msaccucmp's messages of its batch mode (batch_compare.py, docs/batch-mode.md §1-2), in its
// wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

// ---- batch mode (batch_compare.py, docs/batch-mode.md §1-2)

// -op with a directory -f.
std::string batch_single_op_refused(const std::string& op);
// -m whose last component is not all digits (realpath).
std::string batch_path_not_timestamp(const std::string& path);
// No graph name in any .json of the -f directory (realpath).
std::string batch_no_rule_json(const std::string& dir);
// No {device}/{model_name}/{model_id}/{step} leaf below -m (realpath).
std::string batch_path_format(const std::string& path);
// No graph of the JSONs matched a model_name directory (realpath of -m).
std::string batch_no_graph_match(const std::string& path);
// The graph-id fallback's warning: leaves joined by ',' without spaces.
std::string batch_time_stamps_differ(const std::string& graph, const std::string& leaves);

}  // namespace dumpcmp::msg
