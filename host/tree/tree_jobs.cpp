#include "tree/tree_jobs.hpp"

#include "core/error.hpp"
#include "fusion/graph_summary.hpp"
#include "tree/batch_mode.hpp"

namespace dumpcmp {

std::vector<TreeJob> plan_tree_jobs(const DumpTree& npu, const GoldenTree& golden,
                                    LeafSelection selection, CompareOptions& base,
                                    std::vector<std::string>& warnings) {
  warnings.insert(warnings.end(), npu.warnings.begin(), npu.warnings.end());
  warnings.insert(warnings.end(), golden.tree.warnings.begin(), golden.tree.warnings.end());
  if (golden.kind == GoldenKind::kNpuTree && !base.fusion_rule_path.empty()) {
    // NPU vs NPU: the model only names the graph to compare (its computational graph, else every
    // graph it has); rows pair by op name.
    const std::vector<GeGraphSummary> graphs = list_graphs_file(base.fusion_rule_path);
    if (const auto computational = computational_graph_name(graphs)) {
      selection.graphs = {*computational};
    } else {
      for (const GeGraphSummary& g : graphs) selection.graphs.push_back(g.name);
    }
    base.fusion_rule_path.clear();
  }
  const TreePairing pairing = pair_tree_leaves(npu, golden, selection);
  warnings.insert(warnings.end(), pairing.warnings.begin(), pairing.warnings.end());
  for (const TreeLeaf& g : pairing.golden_only) {
    warnings.push_back(g.path + ": golden leaf with no NPU leaf; not compared");
  }
  std::vector<TreeJob> jobs;
  for (const LeafPair& p : pairing.pairs) {
    TreeJob job{p.npu, p.golden_path, "", "", p.note};
    job.stem = p.npu.single_op()
                   ? p.npu.device + "_" + (p.npu.op_name.empty() ? "ops" : p.npu.op_name)
                   : batch_result_stem(p.npu);
    if (!p.note.empty()) warnings.push_back(p.npu.path + ": " + p.note);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

void require_tree_jobs(const std::vector<TreeJob>& jobs, const std::string& root,
                       const DumpTree& npu) {
  if (!jobs.empty()) return;
  throw Error(ExitCode::kInput, root + ": no dump leaf to compare (" +
                                    std::to_string(npu.leaves.size()) + " found, none selected)");
}

}  // namespace dumpcmp
