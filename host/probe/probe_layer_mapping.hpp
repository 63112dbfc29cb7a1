#pragma once
// msprobe's -lm (docs/msprobe-compare.md §4.7): each NPU row paired with the bench row at the same
// place in the other run's module tree, built from construct.json and stack.json and renamed by a
// YAML of {ClassName: {child.path: bench_child}}; the compare then runs as -dm with the result.
#include <string>
#include <utility>
#include <vector>

#include "probe/probe_dump.hpp"
#include "probe/probe_mapping.hpp"

namespace dumpcmp {

// Every NPU row name (ops in dump order, rows in msprobe's order) with the bench row it is
// compared with, or "N/A". Each side's stack.json and construct.json are read beside its
// dump.json: both or neither. Throws Error(kInput) naming the file for what msprobe refuses.
std::vector<std::pair<std::string, std::string>> probe_layer_data_mapping(
    const ProbeDump& npu, const ProbeDump& bench, const ProbeLayerMapping& mapping);

}  // namespace dumpcmp
