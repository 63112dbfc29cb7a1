#pragma once
// What --tree compares: the NPU tree's leaves, selected and paired with the golden side's, as the
// jobs run_tree_compare runs. Shared by the CLI and the Python module.
#include <string>
#include <vector>

#include "compare/compare_engine.hpp"
#include "tree/dump_tree.hpp"
#include "tree/tree_compare.hpp"
#include "tree/tree_pairing.hpp"

namespace dumpcmp {

// One job per selected NPU leaf of `npu`, paired with `golden`'s leaves (or the flat golden
// directory), each with its result-file stem. For an NPU-vs-NPU tree a fusion rule in `base` only
// names the graphs compared (its computational graph, else every graph) and is taken out of
// `base`. `warnings` receives, in order, the discovery, pairing and golden-only problems and each
// pairing note. No job (nothing selected) is for the caller to refuse, after the warnings.
std::vector<TreeJob> plan_tree_jobs(const DumpTree& npu, const GoldenTree& golden,
                                    LeafSelection selection, CompareOptions& base,
                                    std::vector<std::string>& warnings);

// Throws Error(kInput) naming `root` (the NPU tree as given) when `jobs` is empty: of npu's
// leaves, none was selected.
void require_tree_jobs(const std::vector<TreeJob>& jobs, const std::string& root,
                       const DumpTree& npu);

}  // namespace dumpcmp
